import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { createTestApp, type TestApp } from '../helpers/app';
import { multipart, upload, type Part } from '../helpers/pdf-fixtures';
import type { DocumentItem, DocumentSource } from '../../src/kernel/documents';
import { newId } from '../../src/shared/ids';
import { PdfTemplate } from '../../src/modules/document/document.entity';
import { putPdf } from '../../src/modules/document/pdf-file.store';
import {
  flateOf,
  makeTemplate,
  MiB,
  objectsIn,
  PNG_BYTES,
  readPdf,
  slowToParse,
  templateWithContent,
  templateWithObjects,
  templateWithObjectStream,
} from '../../src/modules/document/testkit';
import { systemCtx, type Ctx } from '../../src/kernel/context';
import { inTransaction } from '../../src/kernel/transaction';

/**
 * PDF templates over HTTP: upload, read, partial updates, delete, download, the checks on what
 * is uploaded, tenancy, and the PDF of an item drawn through a document source. Gift card
 * purchases are not in this code base yet, so the test registers the gift_card source itself,
 * exactly as the gift card module will (kernel/documents.ts).
 */

const purchases = new Map<string, { companyId: string; item: DocumentItem }>();
const giftCards: DocumentSource<Ctx> = async (_ctx, companyId, itemId) => {
  const p = purchases.get(itemId);
  return p && p.companyId === companyId ? p.item : null;
};

let t: TestApp;
let cid: string;
let template: Uint8Array;
const giftCard = newId();
const url = (entityId = giftCard, type = 'gift_card', c = cid) => `/v1/companies/${c}/pdf-templates/${type}/${entityId}`;
const FIELDS = [
  { name: 'code', x: 40, y: 250, fontSize: 20, fontName: 'noto_sans_bold', color: '#aa0000' },
  { name: 'clientName', x: 40, y: 200 },
  { name: 'amount', x: 300, y: 60, fontSize: 14, opacity: 0.5, rotation: 30 },
  { name: 'validUntil', x: 40, y: 150 },
];

beforeAll(async () => {
  t = await createTestApp({ documents: { gift_card: giftCards } });
  cid = (await t.company('Salons Ķēniņš', 'Europe/Riga')).id;
  template = await makeTemplate(500, 300, 'Gift card design');
});
afterAll(async () => t?.close());

const fileRows = async (companyId = cid): Promise<number> => {
  const [row] = await t.deps.orm.em
    .fork()
    .getConnection()
    .execute<{ n: string }[]>('select count(*) as n from pdf_file where company_id = ?', [companyId]);
  return Number(row.n);
};

describe('PDF templates', () => {
  it('uploads a template and reads it back: get, list, and the file byte for byte', async () => {
    const created = await upload(t, 'POST', url(), { file: template, fields: FIELDS });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ message: 'PDF template created' });

    const got = await t.call('GET', url());
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      id: expect.any(String),
      companyID: cid,
      entityType: 'gift_card',
      entityID: giftCard,
      fields: [
        {
          name: 'code',
          x: 40,
          y: 250,
          fontName: 'noto_sans_bold',
          fontSize: 20,
          color: '#AA0000',
          opacity: 1,
          rotation: 0,
          maxWidth: null,
        },
        {
          name: 'clientName',
          x: 40,
          y: 200,
          fontName: 'noto_sans',
          fontSize: 12,
          color: '#000000',
          opacity: 1,
          rotation: 0,
          maxWidth: null,
        },
        {
          name: 'amount',
          x: 300,
          y: 60,
          fontName: 'noto_sans',
          fontSize: 14,
          color: '#000000',
          opacity: 0.5,
          rotation: 30,
          maxWidth: null,
        },
        {
          name: 'validUntil',
          x: 40,
          y: 150,
          fontName: 'noto_sans',
          fontSize: 12,
          color: '#000000',
          opacity: 1,
          rotation: 0,
          maxWidth: null,
        },
      ],
      pageWidth: 500,
      pageHeight: 300,
      storageBucket: 'postgresql:pdf_file',
      storageFileKey: expect.stringMatching(/^[0-9a-f-]{36}\.pdf$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const list = await t.call('GET', `/v1/companies/${cid}/pdf-templates/gift_card`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([got.body]);
    expect((await t.call('GET', `/v1/companies/${cid}/pdf-templates/membership`)).body).toEqual([]);

    const file = await t.call('GET', `${url()}/file`);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="template-gift_card-${giftCard}.pdf"`);
    expect(file.raw.equals(Buffer.from(template))).toBe(true);
  });

  it('refuses a second template for the same entity with 409', async () => {
    const again = await upload(t, 'POST', url(), { file: template, fields: [] });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
  });

  it('updates the fields alone, the file alone, or both', async () => {
    const before = (await t.call('GET', url())).body;

    const onlyFields = await upload(t, 'PATCH', url(), { fields: [{ name: 'title', x: 10, y: 10 }] });
    expect(onlyFields.status).toBe(200);
    expect(onlyFields.body).toEqual({ message: 'PDF template updated' });
    const afterFields = (await t.call('GET', url())).body;
    expect(afterFields.fields.map((f: any) => f.name)).toEqual(['title']);
    expect(afterFields.storageFileKey).toBe(before.storageFileKey);
    expect((await t.call('GET', `${url()}/file`)).raw.equals(Buffer.from(template))).toBe(true);

    const bigger = await makeTemplate(800, 600, 'Second design');
    expect((await upload(t, 'PATCH', url(), { file: bigger })).status).toBe(200);
    const afterFile = (await t.call('GET', url())).body;
    expect([afterFile.pageWidth, afterFile.pageHeight]).toEqual([800, 600]);
    expect(afterFile.fields).toEqual(afterFields.fields);
    expect(afterFile.storageFileKey).not.toBe(before.storageFileKey);
    expect((await t.call('GET', `${url()}/file`)).raw.equals(Buffer.from(bigger))).toBe(true);
    expect(await fileRows()).toBe(1);

    expect((await upload(t, 'PATCH', url(), { file: template, fields: FIELDS })).status).toBe(200);
    const both = (await t.call('GET', url())).body;
    expect([both.pageWidth, both.pageHeight, both.fields.length]).toEqual([500, 300, 4]);
    expect((await t.call('GET', `${url()}/file`)).raw.equals(Buffer.from(template))).toBe(true);
    expect(await fileRows()).toBe(1);
  });

  it('refuses a new file too small for the stored fields, and an update with neither part, changing nothing', async () => {
    const before = (await t.call('GET', url())).body;
    const small = await upload(t, 'PATCH', url(), { file: await makeTemplate(200, 200) });
    expect(small.status).toBe(400);
    expect(small.body.details).toContainEqual({ path: 'fields[0].y', message: 'must be at most the page height 200' });
    const neither = await upload(t, 'PATCH', url(), {});
    expect(neither.status).toBe(400);
    expect((await t.call('GET', url())).body).toEqual(before);
    expect(await fileRows()).toBe(1);
  });

  it('checks what is uploaded: a real PDF, at most 10 MiB, JSON fields with known names', async () => {
    const other = newId();
    const png = await upload(t, 'POST', url(other), { file: PNG_BYTES, filename: 'photo.pdf', contentType: 'application/pdf', fields: [] });
    expect([png.status, png.body.code]).toEqual([415, 'unsupported_media_type']);

    const truncated = await upload(t, 'POST', url(other), { file: template.subarray(0, Math.floor(template.length / 2)), fields: [] });
    expect([truncated.status, truncated.body.code]).toEqual([400, 'invalid_request']);

    // A valid PDF padded past 10 MiB (a comment after the end marker is still a PDF).
    const huge = Buffer.concat([Buffer.from(template), Buffer.from('\n%'), Buffer.alloc(10 * 1024 * 1024, 'x'), Buffer.from('\n%%EOF\n')]);
    const tooBig = await upload(t, 'POST', url(other), { file: huge, fields: [] });
    expect([tooBig.status, tooBig.body.code]).toEqual([413, 'payload_too_large']);

    const notJson = await upload(t, 'POST', url(other), { file: template, fields: '[{"name": "code", ' });
    expect([notJson.status, notJson.body.details]).toEqual([400, [{ path: 'fields', message: 'is not valid JSON' }]]);

    const unknown = await upload(t, 'POST', url(other), { file: template, fields: [{ name: 'activeFrom', x: 1, y: 1 }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].path).toBe('fields[0].name');

    const offPage = await upload(t, 'POST', url(other), { file: template, fields: [{ name: 'code', x: 501, y: 1 }] });
    expect(offPage.status).toBe(400);

    expect((await upload(t, 'POST', url(other), { fields: [] })).status).toBe(400);
    expect((await upload(t, 'POST', url(other), { file: template })).status).toBe(400);
    const json = await t.call('POST', url(other), { body: { fields: [] } });
    expect([json.status, json.body.code]).toEqual([415, 'unsupported_media_type']);
    expect((await upload(t, 'POST', url(other, 'voucher'), { file: template, fields: [] })).status).toBe(400);
    expect((await upload(t, 'POST', url('not-a-uuid'), { file: template, fields: [] })).status).toBe(400);

    expect((await t.call('GET', url(other))).status).toBe(404);
    expect((await t.call('GET', `/v1/companies/${cid}/pdf-templates/gift_card`)).body).toHaveLength(1);
    expect(await fileRows()).toBe(1);
  });

  it('keeps templates to their company and needs pdf.read / pdf.write', async () => {
    const sister = (await t.company('Sister salon')).id;
    for (const [method, path] of [
      ['GET', url(giftCard, 'gift_card', sister)],
      ['GET', `${url(giftCard, 'gift_card', sister)}/file`],
      ['DELETE', url(giftCard, 'gift_card', sister)],
    ] as const)
      expect((await t.call(method, path)).status).toBe(404);
    expect((await upload(t, 'PATCH', url(giftCard, 'gift_card', sister), { fields: [] })).status).toBe(404);
    expect((await t.call('GET', `/v1/companies/${sister}/pdf-templates/gift_card`)).body).toEqual([]);

    const reader = await t.keyWith({ [cid]: ['pdf.read'] });
    expect((await t.call('GET', url(), { key: reader })).status).toBe(200);
    expect((await t.call('GET', `${url()}/file`, { key: reader })).status).toBe(200);
    expect((await upload(t, 'PATCH', url(), { fields: [] }, reader)).status).toBe(403);
    expect((await t.call('DELETE', url(), { key: reader })).status).toBe(403);
    expect((await t.call('GET', url(), { key: await t.keyWith({ [cid]: ['giftcards.read'] }) })).status).toBe(403);
    expect((await t.call('GET', url(), { key: null })).status).toBe(401);
    const stranger = await t.newMerchant();
    expect((await t.call('GET', url(), { key: stranger })).status).toBe(403);
  });

  it("draws a purchase's values on the entity's template at their positions, in Unicode", async () => {
    const purchase = newId();
    purchases.set(purchase, {
      companyId: cid,
      item: {
        entityID: giftCard,
        values: {
          code: { kind: 'text', text: 'GC-ŽŪ42' },
          clientName: { kind: 'text', text: 'Ģirts Ķēniņš, Zażółć Größe' },
          amount: { kind: 'money', amount: 2500, currency: 'EUR' },
          validUntil: { kind: 'date', at: new Date('2027-12-31T22:30:00Z') },
        },
      },
    });
    const r = await t.call('GET', `${url()}/items/${purchase}/pdf`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    const [page] = (await readPdf(r.raw)).pages;
    expect([page.width, page.height]).toEqual([500, 300]);
    const at = (str: string) => page.items.find((i) => i.str === str);
    expect(at('Gift card design')).toBeDefined();
    expect(at('GC-ŽŪ42')).toMatchObject({ x: 40, y: 250, fontSize: 20 });
    expect(at('Ģirts Ķēniņš, Zażółć Größe')).toMatchObject({ x: 40, y: 200, fontSize: 12 });
    expect(at('25.00 EUR')).toMatchObject({ x: 300, y: 60 });
    expect(at('25.00 EUR')!.rotation).toBeCloseTo(30, 3);
    // the company's date: 2027-12-31T22:30Z is already 1 January in Riga
    expect(at('2028-01-01')).toMatchObject({ x: 40, y: 150 });
    expect(page.runs.find((x) => x.text === 'GC-ŽŪ42')).toMatchObject({ color: '#aa0000', opacity: 1 });
    expect(page.runs.find((x) => x.text === '25.00 EUR')).toMatchObject({ opacity: 0.5 });
  });

  it('prints the default voucher for an entity without a template', async () => {
    const card = newId();
    const purchase = newId();
    purchases.set(purchase, {
      companyId: cid,
      item: {
        entityID: card,
        values: {
          code: { kind: 'text', text: 'DEF-1' },
          title: { kind: 'text', text: 'Spa diena' },
          amount: { kind: 'money', amount: 5000, currency: 'EUR' },
        },
      },
    });
    const r = await t.call('GET', `${url(card)}/items/${purchase}/pdf`);
    expect(r.status).toBe(200);
    const [page] = (await readPdf(r.raw)).pages;
    expect(Math.round(page.width)).toBe(595);
    const strs = page.items.map((i) => i.str);
    for (const s of ['Salons Ķēniņš', 'Spa diena', '50.00 EUR', 'DEF-1']) expect(strs).toContain(s);
  });

  it('answers 404 for an unknown item, an item of another entity or company, and an entity type nothing prints', async () => {
    const purchase = newId();
    purchases.set(purchase, { companyId: cid, item: { entityID: newId(), values: {} } });
    expect((await t.call('GET', `${url()}/items/${purchase}/pdf`)).status).toBe(404);
    expect((await t.call('GET', `${url()}/items/${newId()}/pdf`)).status).toBe(404);
    const sister = (await t.company('Another salon')).id;
    const mine = newId();
    purchases.set(mine, { companyId: cid, item: { entityID: giftCard, values: {} } });
    expect((await t.call('GET', `${url(giftCard, 'gift_card', sister)}/items/${mine}/pdf`)).status).toBe(404);
    // An item that is no membership contract of the company.
    expect((await t.call('GET', `${url(giftCard, 'membership')}/items/${mine}/pdf`)).status).toBe(404);
    expect((await t.call('GET', `${url()}/items/nope/pdf`)).status).toBe(400);
  });

  it('deletes a template with its file; then it is 404 and the entity prints the default voucher', async () => {
    const del = await t.call('DELETE', url());
    expect([del.status, del.body]).toEqual([200, { message: 'PDF template deleted' }]);
    expect((await t.call('GET', url())).status).toBe(404);
    expect((await t.call('GET', `${url()}/file`)).status).toBe(404);
    expect((await t.call('DELETE', url())).status).toBe(404);
    expect(await fileRows()).toBe(0);
    const purchase = newId();
    purchases.set(purchase, { companyId: cid, item: { entityID: giftCard, values: { code: { kind: 'text', text: 'AFTER-1' } } } });
    const r = await t.call('GET', `${url()}/items/${purchase}/pdf`);
    expect(r.status).toBe(200);
    expect((await PDFDocument.load(r.raw)).getPage(0).getSize().width).toBeCloseTo(595.28);
  });
});

describe('PDF templates over GraphQL', () => {
  const card = newId();
  beforeAll(async () => {
    expect((await upload(t, 'POST', url(card), { file: template, fields: [{ name: 'code', x: 1, y: 2 }] })).status).toBe(201);
  });

  it('reads templates as a page and one by one, with the download URL', async () => {
    const r = await t.gql(
      `query($c: ID!, $e: ID!) {
        pdfTemplates(companyID: $c, entityType: gift_card, limit: 10) { total limit offset pdfTemplates { entityID entityType } }
        pdfTemplate(companyID: $c, entityType: gift_card, entityID: $e) {
          entityID pageWidth pageHeight storageBucket fileUrl fields { name x y fontName fontSize color opacity rotation maxWidth }
        }
      }`,
      { c: cid, e: card },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.pdfTemplates).toEqual({
      total: 1,
      limit: 10,
      offset: 0,
      pdfTemplates: [{ entityID: card, entityType: 'gift_card' }],
    });
    expect(r.body.data.pdfTemplate).toEqual({
      entityID: card,
      pageWidth: 500,
      pageHeight: 300,
      storageBucket: 'postgresql:pdf_file',
      fileUrl: `${t.deps.config.publicUrl}/v1/companies/${cid}/pdf-templates/gift_card/${card}/file`,
      fields: [
        { name: 'code', x: 1, y: 2, fontName: 'noto_sans', fontSize: 12, color: '#000000', opacity: 1, rotation: 0, maxWidth: null },
      ],
    });
  });

  it('replaces the fields with the same checks as REST, and deletes', async () => {
    const mutation = `mutation($c: ID!, $e: ID!, $f: [PdfTemplateFieldInput!]!) {
      updatePdfTemplateFields(companyID: $c, entityType: gift_card, entityID: $e, fields: $f) { fields { name x y fontName color } }
    }`;
    const ok = await t.gql(mutation, {
      c: cid,
      e: card,
      f: [{ name: 'amount', x: 100, y: 50, fontName: 'noto_sans_italic', color: '#112233' }],
    });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.updatePdfTemplateFields.fields).toEqual([
      { name: 'amount', x: 100, y: 50, fontName: 'noto_sans_italic', color: '#112233' },
    ]);

    const wrongType = await t.gql(mutation, { c: cid, e: card, f: [{ name: 'status', x: 1, y: 1 }] });
    expect(wrongType.body.errors[0].extensions.code).toBe('invalid_request');
    const offPage = await t.gql(mutation, { c: cid, e: card, f: [{ name: 'code', x: 1, y: 900 }] });
    expect(offPage.body.errors[0].extensions.code).toBe('invalid_request');
    const misspelt = await t.gql(mutation, { c: cid, e: card, f: [{ name: 'kode', x: 1, y: 1 }] });
    expect(misspelt.body.errors).toBeDefined();

    const del = await t.gql(`mutation($c: ID!, $e: ID!) { deletePdfTemplate(companyID: $c, entityType: gift_card, entityID: $e) }`, {
      c: cid,
      e: card,
    });
    expect(del.body.data).toEqual({ deletePdfTemplate: true });
    const gone = await t.gql(`query($c: ID!, $e: ID!) { pdfTemplate(companyID: $c, entityType: gift_card, entityID: $e) { id } }`, {
      c: cid,
      e: card,
    });
    expect(gone.body.data.pdfTemplate).toBeNull();
    expect(gone.body.errors[0].extensions.code).toBe('not_found');
  });
});

/** A template stored as it is, past the upload's checks (as one stored before they existed would be). */
async function storeDirectly(app: TestApp, companyId: string, entityId: string, file: Uint8Array): Promise<void> {
  await inTransaction(systemCtx(app.deps, 'system'), async (tx) => {
    const fileId = await putPdf(tx, companyId, file);
    const now = new Date();
    tx.em.create(PdfTemplate, {
      companyId,
      entityType: 'gift_card',
      entityId,
      fields: [
        { name: 'code', x: 40, y: 40, fontName: 'noto_sans', fontSize: 12, color: '#000000', opacity: 1, rotation: 0, maxWidth: null },
      ],
      pageWidth: 500,
      pageHeight: 300,
      fileId,
      createdAt: now,
      updatedAt: now,
    });
    await tx.em.flush();
  });
}

interface Timed {
  status: number;
  body: any;
  /**
   * the CPU this process (the server, its PDF threads and this client) spent meanwhile, ms: what
   * shows the work bounded whatever else the machine runs (the wall time also measures the wait
   * for a CPU, which a loaded machine makes long for the PDF threads' low priority)
   */
  cpuMs: number;
  /** how much this process's peak resident memory grew meanwhile, MiB (an inflated bomb would hold hundreds) */
  peakGrowthMiB: number;
  /** how long the request took, ms */
  ms: number;
  /** how long each /health asked meanwhile took, ms */
  health: number[];
}

/**
 * One request to a listening server while /health is asked over and over on another
 * connection: what the request answered and took, and how long each /health took meanwhile
 * (a stalled event loop answers nothing until it is free again).
 */
async function withHealth(base: string, path: string, init: { method?: string; key: string; parts?: Part[] }): Promise<Timed> {
  const headers: Record<string, string> = { 'x-api-key': init.key };
  let body: Buffer | undefined;
  if (init.parts) {
    const m = multipart(init.parts);
    body = m.body;
    Object.assign(headers, m.headers);
  }
  let done = false;
  const health: number[] = [];
  const cpu = process.cpuUsage();
  const peak = process.resourceUsage().maxRSS;
  const started = performance.now();
  const request = fetch(base + path, { method: init.method ?? 'GET', headers, body }).then(async (res) => {
    const body = await res.json().catch(() => null);
    const used = process.cpuUsage(cpu);
    const peakGrowthMiB = (process.resourceUsage().maxRSS - peak) / 1024;
    const answer = { status: res.status, body, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, peakGrowthMiB };
    done = true;
    return answer;
  });
  const probe = (async () => {
    while (!done) {
      const asked = performance.now();
      const res = await fetch(`${base}/health`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      health.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const answer = await request;
  await probe;
  return { ...answer, health };
}

const templateParts = (file: Uint8Array, fields: unknown = [{ name: 'code', x: 40, y: 40 }]): Part[] => [
  { name: 'file', data: file, filename: 'design.pdf' },
  { name: 'fields', data: JSON.stringify(fields) },
];

describe('PDF templates are read with bounded work', () => {
  let base: string;
  let bomb: Buffer;
  const INFLATE_REFUSED = 'the PDF has compressed streams that inflate to more than 50 MiB';

  beforeAll(async () => {
    base = await t.listen();
    // 400 MiB of blanks in about 400 KB
    bomb = await flateOf(400 * MiB);
    // the PDF thread is started and has read a PDF once
    const warm = newId();
    expect((await upload(t, 'POST', url(warm), { file: template, fields: [] })).status).toBe(201);
    expect((await t.call('DELETE', url(warm))).status).toBe(200);
  });

  it('refuses a decompression bomb without inflating it, stores nothing, and /health answers meanwhile', async () => {
    const entity = newId();
    const pdf = await templateWithContent(bomb);
    expect(pdf.length).toBeLessThan(500_000);
    const filesBefore = await fileRows();
    const r = await withHealth(base, url(entity), { method: 'POST', key: t.adminKey, parts: templateParts(pdf) });
    expect([r.status, r.body]).toEqual([
      400,
      { code: 'invalid_request', message: INFLATE_REFUSED, details: [{ path: 'file', message: INFLATE_REFUSED.slice('the PDF '.length) }] },
    ]);
    expect(r.cpuMs).toBeLessThan(3000);
    expect(r.peakGrowthMiB).toBeLessThan(200);
    expect(r.health.length).toBeGreaterThan(0);
    expect(Math.max(...r.health)).toBeLessThan(1000);
    expect((await t.call('GET', url(entity))).status).toBe(404);
    expect((await t.call('GET', `/v1/companies/${cid}/pdf-templates/gift_card`)).body.map((x: any) => x.entityID)).not.toContain(entity);
    expect(await fileRows()).toBe(filesBefore);
  });

  it('refuses a bomb in an object stream, which pdf-lib would inflate while parsing, and one sent as a new file', async () => {
    const entity = newId();
    const r = await withHealth(base, url(entity), {
      method: 'POST',
      key: t.adminKey,
      parts: templateParts(await templateWithObjectStream(bomb)),
    });
    expect([r.status, r.body.message]).toEqual([400, INFLATE_REFUSED]);
    expect(r.cpuMs).toBeLessThan(3000);
    expect(r.peakGrowthMiB).toBeLessThan(200);
    expect(Math.max(...r.health)).toBeLessThan(1000);
    expect((await t.call('GET', url(entity))).status).toBe(404);

    // the same file as a replacement: refused, and the template keeps its file
    expect((await upload(t, 'POST', url(entity), { file: template, fields: [] })).status).toBe(201);
    const before = (await t.call('GET', url(entity))).body;
    const patch = await upload(t, 'PATCH', url(entity), { file: await templateWithContent(bomb) });
    expect([patch.status, patch.body.message]).toEqual([400, INFLATE_REFUSED]);
    expect((await t.call('GET', url(entity))).body).toEqual(before);
    expect((await t.call('GET', `${url(entity)}/file`)).raw.equals(Buffer.from(template))).toBe(true);
  });

  it('refuses more than 1,000 objects, and accepts a template just under both bounds', async () => {
    const many = await upload(t, 'POST', url(newId()), { file: await templateWithObjects(1000, true), fields: [] });
    expect([many.status, many.body.message]).toEqual([400, 'the PDF has more than 1000 objects']);

    const entity = newId();
    const base0 = objectsIn(await templateWithObjects(0, false));
    const thousand = await templateWithObjects(1000 - base0, false);
    expect(objectsIn(thousand)).toBe(1000);
    expect((await upload(t, 'POST', url(entity), { file: thousand, fields: [] })).status).toBe(201);

    // 49 MiB of content: read, stored, and printed
    const large = newId();
    const nearly = await templateWithContent(await flateOf(49 * MiB));
    const stored = await upload(t, 'POST', url(large), { file: nearly, fields: [{ name: 'code', x: 40, y: 40 }] });
    expect(stored.status).toBe(201);
    const purchase = newId();
    purchases.set(purchase, { companyId: cid, item: { entityID: large, values: { code: { kind: 'text', text: 'BIG-1' } } } });
    const voucher = await t.call('GET', `${url(large)}/items/${purchase}/pdf`);
    expect(voucher.status).toBe(200);
    expect(voucher.raw.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses to draw from a stored template beyond the bounds, fast and with 400, never 500', async () => {
    const entity = newId();
    await storeDirectly(t, cid, entity, await templateWithContent(bomb));
    const purchase = newId();
    purchases.set(purchase, { companyId: cid, item: { entityID: entity, values: { code: { kind: 'text', text: 'BOMB-1' } } } });
    for (let i = 0; i < 2; i++) {
      const r = await withHealth(base, `${url(entity)}/items/${purchase}/pdf`, { key: t.adminKey });
      expect([r.status, r.body]).toEqual([
        400,
        {
          code: 'invalid_request',
          message: 'the PDF template has compressed streams that inflate to more than 50 MiB; upload a new template file',
          details: [{ path: 'template', message: 'has compressed streams that inflate to more than 50 MiB' }],
        },
      ]);
      expect(r.cpuMs).toBeLessThan(3000);
      expect(r.peakGrowthMiB).toBeLessThan(200);
      expect(Math.max(...r.health)).toBeLessThan(1000);
    }
    // the template itself can still be read, replaced or deleted
    expect((await t.call('GET', url(entity))).status).toBe(200);
    expect((await upload(t, 'PATCH', url(entity), { file: template })).status).toBe(200);
    expect((await t.call('GET', `${url(entity)}/items/${purchase}/pdf`)).status).toBe(200);
  });
});

describe('a PDF that takes too long to read', () => {
  let slow: TestApp;
  let base: string;
  let company: string;
  let pdf: Uint8Array;
  const path = (entityId: string) => `/v1/companies/${company}/pdf-templates/gift_card/${entityId}`;

  beforeAll(async () => {
    slow = await createTestApp({ documents: { gift_card: giftCards }, config: { pdfTimeoutMs: 1500 } });
    company = (await slow.company('Slow salon')).id;
    base = await slow.listen();
    // no stream at all, but pdf-lib's parser would take minutes over it
    pdf = await slowToParse(100_000);
    expect((await upload(slow, 'POST', path(newId()), { file: template, fields: [] })).status).toBe(201);
  });
  afterAll(async () => slow?.close());

  it('is refused when its time is up, its thread replaced, and /health answers meanwhile', async () => {
    const entity = newId();
    const r = await withHealth(base, path(entity), { method: 'POST', key: slow.adminKey, parts: templateParts(pdf) });
    expect([r.status, r.body]).toEqual([
      400,
      {
        code: 'invalid_request',
        message: 'the PDF takes more than 1.5 s to read',
        details: [{ path: 'file', message: 'takes more than 1.5 s to read' }],
      },
    ]);
    expect(r.ms).toBeGreaterThanOrEqual(1400);
    expect(r.ms).toBeLessThan(5000);
    expect(Math.max(...r.health)).toBeLessThan(1000);
    expect((await slow.call('GET', path(entity))).status).toBe(404);
    // the next PDF is read on a new thread
    expect((await upload(slow, 'POST', path(entity), { file: template, fields: [] })).status).toBe(201);
  });

  it('is refused when stored and drawn from', async () => {
    const entity = newId();
    await storeDirectly(slow, company, entity, pdf);
    const purchase = newId();
    purchases.set(purchase, { companyId: company, item: { entityID: entity, values: { code: { kind: 'text', text: 'SLOW-1' } } } });
    const r = await withHealth(base, `${path(entity)}/items/${purchase}/pdf`, { key: slow.adminKey });
    expect([r.status, r.body.message]).toEqual([400, 'the PDF template takes more than 1.5 s to read; upload a new template file']);
    expect(Math.max(...r.health)).toBeLessThan(1000);
  });
});

describe('a PDF thread that is slow to start', () => {
  let slowStart: TestApp;
  let dir: string;

  beforeAll(async () => {
    // Each PDF thread loads its modules first, here behind a 2.5 s pause: what a cold start of
    // the sources on a busy machine can take. PDF_TIMEOUT_MS bounds reading a PDF, not that.
    dir = mkdtempSync(join(tmpdir(), 'pdf-thread-'));
    const preload = join(dir, 'slow-start.cjs');
    writeFileSync(
      preload,
      `require(${JSON.stringify(join(__dirname, '..', 'helpers', 'swc-register.cjs'))});
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2500);`,
    );
    slowStart = await createTestApp({ documents: { gift_card: giftCards }, config: { pdfTimeoutMs: 1500, threadPreload: preload } });
  });
  afterAll(async () => {
    await slowStart?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads the first PDF once the thread has started: the time-out counts the PDF's own time", async () => {
    const company = (await slowStart.company('Cold start')).id;
    const entity = newId();
    const r = await upload(slowStart, 'POST', `/v1/companies/${company}/pdf-templates/gift_card/${entity}`, { file: template, fields: [] });
    expect([r.status, r.body.message]).toEqual([201, 'PDF template created']);
    expect((await slowStart.call('GET', `/v1/companies/${company}/pdf-templates/gift_card/${entity}`)).status).toBe(200);
  });
});

describe('fonts of template fields', () => {
  const card = newId();
  const draw = async (clientName: string) => {
    const purchase = newId();
    purchases.set(purchase, {
      companyId: cid,
      item: { entityID: card, values: { clientName: { kind: 'text', text: clientName }, code: { kind: 'text', text: 'GC-FONT-1' } } },
    });
    const r = await t.call('GET', `${url(card)}/items/${purchase}/pdf`);
    expect(r.status).toBe(200);
    return (await readPdf(r.raw)).pages[0].items;
  };

  it('draws in a standard font by its PostScript name, and what it cannot draw in the matching Noto Sans face', async () => {
    const fields = [
      { name: 'clientName', x: 40, y: 200, fontName: 'Helvetica-Bold', fontSize: 16 },
      { name: 'code', x: 40, y: 100, fontName: 'Times-Roman' },
    ];
    expect((await upload(t, 'POST', url(card), { file: template, fields })).status).toBe(201);
    expect((await t.call('GET', url(card))).body.fields.map((f: any) => f.fontName)).toEqual(['Helvetica-Bold', 'Times-Roman']);

    const latin1 = await draw('José Müller-Øberg');
    expect(latin1.find((i) => i.str === 'José Müller-Øberg')).toMatchObject({ x: 40, y: 200, fontSize: 16, font: 'Helvetica-Bold' });
    expect(latin1.find((i) => i.str === 'GC-FONT-1')).toMatchObject({ font: 'Times-Roman' });

    const wider = 'Łukasz Žīgurs Ωμέγα Жанна';
    const unicode = await draw(wider);
    expect(unicode.find((i) => i.str === wider)).toMatchObject({
      x: 40,
      y: 200,
      fontSize: 16,
      font: expect.stringMatching(/^NotoSans-Bold\b/),
    });
    expect(unicode.find((i) => i.str === 'GC-FONT-1')).toMatchObject({ font: 'Times-Roman' });
  });

  it('refuses another font name with 400', async () => {
    for (const fontName of ['Arial', 'helvetica-bold', 'Helvetica_Bold', 'Symbol', 'noto_serif']) {
      const r = await upload(t, 'PATCH', url(card), { fields: [{ name: 'code', x: 1, y: 1, fontName }] });
      expect([r.status, r.body.details?.[0]?.path]).toEqual([400, 'fields[0].fontName']);
    }
    expect((await t.call('GET', url(card))).body.fields.map((f: any) => f.fontName)).toEqual(['Helvetica-Bold', 'Times-Roman']);
  });

  it('takes and answers the standard fonts over GraphQL, `_` for `-`', async () => {
    const mutation = `mutation($c: ID!, $e: ID!, $f: [PdfTemplateFieldInput!]!) {
      updatePdfTemplateFields(companyID: $c, entityType: gift_card, entityID: $e, fields: $f) { fields { name fontName } }
    }`;
    const ok = await t.gql(mutation, {
      c: cid,
      e: card,
      f: [
        { name: 'clientName', x: 40, y: 200, fontName: 'Courier_BoldOblique' },
        { name: 'code', x: 40, y: 100, fontName: 'noto_sans_bold' },
      ],
    });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.updatePdfTemplateFields.fields).toEqual([
      { name: 'clientName', fontName: 'Courier_BoldOblique' },
      { name: 'code', fontName: 'noto_sans_bold' },
    ]);
    expect((await t.call('GET', url(card))).body.fields.map((f: any) => f.fontName)).toEqual(['Courier-BoldOblique', 'noto_sans_bold']);
    expect((await draw('Kovács')).find((i) => i.str === 'Kovács')).toMatchObject({ font: 'Courier-BoldOblique' });

    const unknown = await t.gql(mutation, { c: cid, e: card, f: [{ name: 'code', x: 1, y: 1, fontName: 'Courier-Bold' }] });
    expect(unknown.body.errors?.[0]?.message).toMatch(/PdfFontName/);
  });
});
