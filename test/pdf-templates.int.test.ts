import { PDFDocument } from 'pdf-lib';
import { createTestApp, type TestApp } from './helpers/app';
import { upload } from './pdf-fixtures';
import type { DocumentItem, DocumentSource } from '../src/kernel/documents';
import { newId } from '../src/shared/ids';
import { makeTemplate, PNG_BYTES, readPdf } from '../src/modules/document/testkit';

/**
 * PDF templates over HTTP: upload, read, partial updates, delete, download, the checks on what
 * is uploaded, tenancy, and the PDF of an item drawn through a document source. Gift card
 * purchases are not in this code base yet, so the test registers the gift_card source itself,
 * exactly as the gift card module will (kernel/documents.ts).
 */

const purchases = new Map<string, { companyId: string; item: DocumentItem }>();
const giftCards: DocumentSource = async (_em, companyId, itemId) => {
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
