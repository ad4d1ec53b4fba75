import { LockMode } from '@mikro-orm/core';
import type { Ctx } from '../../kernel/context';
import { DOCUMENT_ENTITY_TYPES, type DocumentEntityType } from '../../kernel/documents';
import { companyForMerchant } from '../company/company.access';
import { conflict, invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Page } from '../../shared/pagination';
import { PdfTemplate } from './document.entity';
import { templateJson, type TemplateJson } from './document.json';
import { runHeavy } from '../../kernel/bulkhead';
import type { PdfFacts } from './pdf-check';
import { checkPdfOffThread } from './pdf-threads';
import { getPdf, putPdf, removePdf } from './pdf-file.store';
import { checkOnPage, parseFields } from './template.checks';
import { listSpec, ORM_ORDERS, type ConnectionArgs, type ConnectionJson } from '../../kernel/connection';
import { connectionFrom, ormSource } from '../../kernel/keyset';
import { inTransaction } from '../../kernel/transaction';

/** A template upload: the file's bytes and the `fields` part as sent (text or an array); either may be absent. */
export interface TemplateUpload {
  file?: Uint8Array;
  fields?: unknown;
}

/** Reads the upload; called after the access checks, so a refused caller's body is never read. */
export type ReadUpload = () => Promise<TemplateUpload>;

export interface TemplateKey {
  entityType: DocumentEntityType;
  entityId: string;
}

/** The path's entity type and entity id, checked (400). */
export function templateKey(entityType: unknown, entityId?: unknown): TemplateKey {
  if (typeof entityType !== 'string' || !(DOCUMENT_ENTITY_TYPES as readonly string[]).includes(entityType))
    throw invalid(`entity type must be one of ${DOCUMENT_ENTITY_TYPES.join(', ')}`, [
      { path: 'entity_type', message: `must be one of ${DOCUMENT_ENTITY_TYPES.join(', ')}` },
    ]);
  if (entityId !== undefined && !isUuid(entityId))
    throw invalid('entity id must be a UUID', [{ path: 'entity_id', message: 'must be a UUID' }]);
  return { entityType: entityType as DocumentEntityType, entityId: typeof entityId === 'string' ? entityId.toLowerCase() : '' };
}

/**
 * Reads an uploaded PDF (pdf-check.ts) on a PDF thread, with bounded work, under the documents
 * bulkhead: a few at a time, a short queue, then 503.
 */
function checkUpload(ctx: Ctx, file: Uint8Array): Promise<PdfFacts> {
  return runHeavy(ctx, 'documents', () => checkPdfOffThread(ctx.deps, file));
}

/** Creates the template of one gift card or subscription (`pdf.write`); a second one for the same entity is 409. */
export async function createTemplate(ctx: Ctx, companyId: string, entityType: unknown, entityId: unknown, read: ReadUpload) {
  const company = await companyForMerchant(ctx, companyId, 'pdf.write');
  const key = templateKey(entityType, entityId);
  const upload = await read();
  if (!upload.file) throw invalid('a template needs a PDF file part named file', [{ path: 'file', message: 'is required' }]);
  if (upload.fields === undefined) throw invalid('a template needs a fields part', [{ path: 'fields', message: 'is required' }]);
  const facts = await checkUpload(ctx, upload.file);
  const fields = parseFields(upload.fields, key.entityType, { width: facts.pageWidth, height: facts.pageHeight });
  const file = upload.file;
  // A friendly answer for the usual case; the unique constraint decides between concurrent uploads.
  if (await ctx.em.count(PdfTemplate, { companyId: company.id, ...key }))
    throw conflict(`a template for this ${key.entityType} already exists; update it instead`);
  const created = await inTransaction(ctx, async (tx) => {
    const fileId = await putPdf(tx, company.id, file);
    const t = tx.em.create(PdfTemplate, {
      companyId: company.id,
      ...key,
      fields,
      pageWidth: facts.pageWidth,
      pageHeight: facts.pageHeight,
      fileId,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    await tx.em.flush();
    return t;
  });
  return templateJson(created);
}

async function findTemplate(ctx: Ctx, companyId: string, key: TemplateKey): Promise<PdfTemplate> {
  const t = await ctx.em.findOne(PdfTemplate, { companyId, entityType: key.entityType, entityId: key.entityId });
  if (!t) throw notFound('PDF template');
  return t;
}

/** A company's templates of one entity type (`pdf.read`), oldest first; `page` null answers them all. */
export async function listTemplates(
  ctx: Ctx,
  companyId: string,
  entityType: unknown,
  page: Page | null,
): Promise<{ templates: TemplateJson[]; total: number }> {
  const company = await companyForMerchant(ctx, companyId, 'pdf.read');
  const { entityType: type } = templateKey(entityType);
  const [rows, total] = await ctx.em.findAndCount(
    PdfTemplate,
    { companyId: company.id, entityType: type },
    { orderBy: { createdAt: 'asc', id: 'asc' }, ...(page ? { limit: page.limit, offset: page.offset } : {}) },
  );
  return { templates: rows.map(templateJson), total };
}

/** GraphQL: the company's templates of one entity type as a connection (kernel/connection.ts), oldest first. */
export async function templatesConnection(
  ctx: Ctx,
  companyId: string,
  entityType: unknown,
  args: ConnectionArgs,
): Promise<ConnectionJson<TemplateJson>> {
  const company = await companyForMerchant(ctx, companyId, 'pdf.read');
  const { entityType: type } = templateKey(entityType);
  const keys = ORM_ORDERS.creation;
  const source = ormSource(ctx.em, PdfTemplate, { companyId: company.id, entityType: type }, keys, (rows: PdfTemplate[]) =>
    rows.map(templateJson),
  );
  return connectionFrom(source, args, listSpec(keys, 'pdfTemplates', company.id, { type }), 'pdfTemplates');
}

/** One template (`pdf.read`); 404 when the company has none for the entity. */
export async function getTemplate(ctx: Ctx, companyId: string, entityType: unknown, entityId: unknown): Promise<TemplateJson> {
  const company = await companyForMerchant(ctx, companyId, 'pdf.read');
  return templateJson(await findTemplate(ctx, company.id, templateKey(entityType, entityId)));
}

/**
 * Replaces the file, the fields or both (`pdf.write`). The template row is locked first, so of
 * two concurrent updates the second replaces the first one's file and no file is left behind.
 * Fields are checked against the page of the file the template ends up with.
 */
export async function updateTemplate(
  ctx: Ctx,
  companyId: string,
  entityType: unknown,
  entityId: unknown,
  read: ReadUpload,
): Promise<TemplateJson> {
  const company = await companyForMerchant(ctx, companyId, 'pdf.write');
  const key = templateKey(entityType, entityId);
  await findTemplate(ctx, company.id, key);
  const upload = await read();
  if (!upload.file && upload.fields === undefined)
    throw invalid('send a file part, a fields part or both', [{ path: 'file', message: 'or fields is required' }]);
  const facts = upload.file ? await checkUpload(ctx, upload.file) : null;
  const updated = await inTransaction(ctx, async (tx) => {
    const t = await tx.em.findOne(
      PdfTemplate,
      { companyId: company.id, entityType: key.entityType, entityId: key.entityId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!t) throw notFound('PDF template');
    const page = facts ? { width: facts.pageWidth, height: facts.pageHeight } : { width: t.pageWidth, height: t.pageHeight };
    if (upload.fields !== undefined) t.fields = parseFields(upload.fields, key.entityType, page);
    else checkOnPage(t.fields, page);
    if (upload.file && facts) {
      const old = t.fileId;
      t.fileId = await putPdf(tx, company.id, upload.file);
      t.pageWidth = facts.pageWidth;
      t.pageHeight = facts.pageHeight;
      t.updatedAt = ctx.now;
      await tx.em.flush();
      await removePdf(tx, company.id, old);
    } else {
      t.updatedAt = ctx.now;
      await tx.em.flush();
    }
    return t;
  });
  return templateJson(updated);
}

/** Deletes a template and its file in one transaction (`pdf.write`). */
export async function deleteTemplate(ctx: Ctx, companyId: string, entityType: unknown, entityId: unknown): Promise<void> {
  const company = await companyForMerchant(ctx, companyId, 'pdf.write');
  const key = templateKey(entityType, entityId);
  await inTransaction(ctx, async (tx) => {
    const t = await tx.em.findOne(
      PdfTemplate,
      { companyId: company.id, entityType: key.entityType, entityId: key.entityId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!t) throw notFound('PDF template');
    const fileId = t.fileId;
    tx.em.remove(t);
    await tx.em.flush();
    await removePdf(tx, company.id, fileId);
  });
}

/** The stored file of a template, byte for byte (`pdf.read`). */
export async function templateFile(ctx: Ctx, companyId: string, entityType: unknown, entityId: unknown): Promise<Uint8Array> {
  const company = await companyForMerchant(ctx, companyId, 'pdf.read');
  const t = await findTemplate(ctx, company.id, templateKey(entityType, entityId));
  const bytes = await getPdf(ctx, company.id, t.fileId);
  if (!bytes) throw notFound('PDF template file');
  return bytes;
}

/** The template of an entity, or null (no access checks: the caller has made them). */
export async function templateFor(ctx: Ctx, companyId: string, key: TemplateKey): Promise<{ template: PdfTemplate; file: Buffer } | null> {
  const template = await ctx.em.findOne(PdfTemplate, { companyId, entityType: key.entityType, entityId: key.entityId });
  if (!template) return null;
  const file = await getPdf(ctx, companyId, template.fileId);
  return file ? { template, file } : null;
}
