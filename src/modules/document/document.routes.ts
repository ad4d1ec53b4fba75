import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { DOCUMENT_ENTITY_TYPES, DOCUMENT_FIELD_NAMES } from '../../kernel/documents';
import { defineRoutes, errors, registerScope, S } from '../../kernel/rest';
import { DomainError, invalid } from '../../shared/errors';
import type { PrintedPdf } from '../../kernel/documents';
import { clientReceipt, entityPdf, merchantReceipt } from './document.service';
import { FONT_NAMES } from './fonts';
import { MAX_INFLATED_BYTES, MAX_PDF_BYTES, MAX_PDF_OBJECTS } from './pdf-limits';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  templateFile,
  updateTemplate,
  type TemplateUpload,
} from './template.service';

const FONT_NAME =
  'A PDF standard font by its PostScript name (Helvetica, Times-Roman, Courier and their Bold, Oblique / Italic and ' +
  'BoldOblique / BoldItalic forms), drawing Latin-1 (WinAnsi) text, or an embedded Unicode face (noto_sans, ' +
  'noto_sans_bold, noto_sans_italic, noto_sans_bold_italic); a value a standard font cannot draw is drawn in the ' +
  'matching Noto Sans face. Default noto_sans; another name is 400.';

const fieldSchema = S.named(
  'PdfTemplateField',
  S.out({
    name: S.oneOf(DOCUMENT_FIELD_NAMES),
    x: S.num,
    y: S.num,
    fontName: { type: 'string', enum: [...FONT_NAMES], description: FONT_NAME },
    fontSize: S.num,
    color: S.str,
    opacity: S.num,
    rotation: S.num,
    maxWidth: { type: ['number', 'null'] },
  }),
);

export const templateSchema = S.named(
  'PdfTemplate',
  S.out({
    id: S.uuid,
    companyID: S.uuid,
    entityType: S.oneOf(DOCUMENT_ENTITY_TYPES),
    entityID: S.uuid,
    fields: S.array(fieldSchema),
    pageWidth: S.num,
    pageHeight: S.num,
    storageBucket: S.str,
    storageFileKey: S.str,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const messageSchema = S.out({ message: { ...S.str, description: 'What was done.' } });
const entityType = ['entity_type', S.choice(DOCUMENT_ENTITY_TYPES)] as const;
const pdf = { type: 'string', description: 'the PDF file (application/pdf)' };
const MULTIPART =
  'multipart/form-data: `file` (the PDF, at most 10 MiB) and `fields` (text: a JSON array of ' +
  '{name, x, y, fontName?, fontSize?, color?, opacity?, rotation?, maxWidth?})';

const MiB = 1024 * 1024;
const UPLOAD =
  `${MULTIPART}. fontName: ${FONT_NAME} The PDF is read with bounded work: at most ${MAX_PDF_BYTES / MiB} MiB (else 413), ` +
  `at most ${MAX_INFLATED_BYTES / MiB} MiB of inflated streams (images aside) and ${MAX_PDF_OBJECTS} objects ` +
  '(else 400 invalid_request, and nothing is stored); a file that is not a PDF is 415.';

type P = { cid: string; entity_type: string; entity_id: string; item_id: string; transaction_id: string };

/**
 * Reads a template upload: one file part named `file` and a text part named `fields`, other
 * text parts ignored. Over 10 MiB is 413; a body that is not multipart is 415.
 */
function uploadOf(req: FastifyRequest): () => Promise<TemplateUpload> {
  return async () => {
    if (!req.isMultipart())
      throw new DomainError('unsupported_media_type', `send ${MULTIPART}`, [{ path: 'body', message: 'must be multipart/form-data' }]);
    const out: TemplateUpload = {};
    try {
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          if (part.fieldname !== 'file' || out.file)
            throw invalid('send one file part, named file', [{ path: part.fieldname.slice(0, 64), message: 'is not expected' }]);
          out.file = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        } else if (part.fieldname === 'fields') {
          if (part.valueTruncated) throw invalid('fields is too long', [{ path: 'fields', message: 'must be at most 256 KiB' }]);
          out.fields = typeof part.value === 'string' ? part.value : String(part.value);
        }
      }
    } catch (err) {
      throw uploadError(err);
    }
    if (out.file && out.file.byteLength === 0) throw invalid('the file is empty', [{ path: 'file', message: 'is empty' }]);
    return out;
  };
}

function uploadError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new DomainError('payload_too_large', 'the PDF file is larger than 10 MiB');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new DomainError('payload_too_large', 'the upload has too many parts (send file and fields)');
  return invalid('the multipart body is malformed');
}

function sendPdf(reply: FastifyReply, answer: PrintedPdf): Buffer {
  reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${answer.filename}"`)
    .header('cache-control', 'private, no-store');
  return Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength);
}

export function documentRoutes(app: FastifyInstance): void {
  const base = '/v1/companies/:cid/pdf-templates/:entity_type';
  registerScope(app, 'pdf-template uploads', async (scope) => {
    // Multipart bodies are accepted only here: everywhere else the API stays JSON only.
    await scope.register(multipart, {
      limits: { fileSize: MAX_PDF_BYTES, files: 2, fields: 10, fieldSize: 256 * 1024, parts: 12, headerPairs: 100 },
    });
    defineRoutes(scope, [
      {
        method: 'POST',
        url: `${base}/:entity_id`,
        operationId: 'createPdfTemplate',
        auth: 'key',
        status: 201,
        summary: `Create PDF template (${MULTIPART})`,
        description: UPLOAD,
        params: S.params('cid', entityType, 'entity_id'),
        response: { 201: messageSchema, 409: S.error, ...errors },
        handler: async (ctx, req) => {
          const p = req.params as P;
          await createTemplate(ctx, p.cid, p.entity_type, p.entity_id, uploadOf(req));
          return { message: 'PDF template created' };
        },
      },
      {
        method: 'PATCH',
        url: `${base}/:entity_id`,
        operationId: 'updatePdfTemplate',
        auth: 'key',
        summary: `Update PDF template: the file, the fields or both (${MULTIPART})`,
        description: UPLOAD,
        params: S.params('cid', entityType, 'entity_id'),
        response: { 200: messageSchema, ...errors },
        handler: async (ctx, req) => {
          const p = req.params as P;
          await updateTemplate(ctx, p.cid, p.entity_type, p.entity_id, uploadOf(req));
          return { message: 'PDF template updated' };
        },
      },
    ]);
  });

  defineRoutes(app, [
    {
      method: 'GET',
      url: base,
      operationId: 'listPdfTemplates',
      auth: 'key',
      summary: 'List PDF templates of an entity type',
      params: S.params('cid', entityType),
      response: { 200: S.array(templateSchema), ...errors },
      handler: async (ctx, req) => {
        const p = req.params as P;
        return (await listTemplates(ctx, p.cid, p.entity_type, null)).templates;
      },
    },
    {
      method: 'GET',
      url: `${base}/:entity_id`,
      operationId: 'getPdfTemplate',
      auth: 'key',
      summary: 'Get PDF template',
      params: S.params('cid', entityType, 'entity_id'),
      response: { 200: templateSchema, ...errors },
      handler: (ctx, req) => {
        const p = req.params as P;
        return getTemplate(ctx, p.cid, p.entity_type, p.entity_id);
      },
    },
    {
      method: 'DELETE',
      url: `${base}/:entity_id`,
      operationId: 'deletePdfTemplate',
      auth: 'key',
      summary: 'Delete PDF template (and its file)',
      params: S.params('cid', entityType, 'entity_id'),
      response: { 200: messageSchema, ...errors },
      handler: async (ctx, req) => {
        const p = req.params as P;
        await deleteTemplate(ctx, p.cid, p.entity_type, p.entity_id);
        return { message: 'PDF template deleted' };
      },
    },
    {
      method: 'GET',
      url: `${base}/:entity_id/file`,
      operationId: 'downloadPdfTemplateFile',
      auth: 'key',
      summary: 'Download template PDF file (application/pdf, the bytes uploaded)',
      params: S.params('cid', entityType, 'entity_id'),
      response: { 200: pdf, ...errors },
      handler: async (ctx, req, reply) => {
        const p = req.params as P;
        const bytes = await templateFile(ctx, p.cid, p.entity_type, p.entity_id);
        return sendPdf(reply, { bytes, filename: `template-${p.entity_type}-${p.entity_id.toLowerCase()}.pdf` });
      },
    },
    {
      method: 'GET',
      url: `${base}/:entity_id/items/:item_id/pdf`,
      operationId: 'downloadEntityPdf',
      auth: 'key',
      summary: "Download entity PDF (application/pdf): the template with the item's values, or the default voucher / membership card",
      description:
        'A stored template is read within the bounds of an upload (10 MiB, 50 MiB of inflated streams, 1,000 objects); ' +
        'one beyond them is 400 invalid_request (upload a new template file).',
      params: S.params('cid', entityType, 'entity_id', ['item_id', 'The gift card contract or subscription contract printed.']),
      response: { 200: pdf, ...errors },
      heavy: { lane: 'documents' },
      handler: async (ctx, req, reply) => {
        const p = req.params as P;
        return sendPdf(reply, await entityPdf(ctx, p.cid, p.entity_type, p.entity_id, p.item_id));
      },
    },
    {
      method: 'GET',
      url: '/v1/companies/:cid/payments/:transaction_id/receipt',
      operationId: 'downloadReceipt',
      auth: 'key',
      summary: 'Receipt of a paid payment transaction (application/pdf; payments.read); an unpaid one is 409',
      params: S.params('cid', 'transaction_id'),
      response: { 200: pdf, 409: S.error, ...errors },
      heavy: { lane: 'documents' },
      handler: async (ctx, req, reply) => {
        const p = req.params as P;
        return sendPdf(reply, await merchantReceipt(ctx, p.cid, p.transaction_id));
      },
    },
    {
      method: 'GET',
      url: '/v1/client/payments/:transaction_id/receipt',
      operationId: 'downloadClientReceipt',
      auth: 'bearer',
      summary: "Receipt of one of the client's own paid transactions (application/pdf); an unpaid one is 409",
      params: S.params('transaction_id'),
      response: { 200: pdf, 409: S.error, ...errors },
      heavy: { lane: 'documents' },
      handler: async (ctx, req, reply) => {
        const p = req.params as P;
        return sendPdf(reply, await clientReceipt(ctx, p.transaction_id));
      },
    },
  ]);
}
