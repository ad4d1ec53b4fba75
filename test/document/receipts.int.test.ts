import { newId } from '../../src/shared/ids';
import { pageText, readPdf, type PdfPageView } from '../../src/modules/document/testkit';
import { createTestApp, type TestApp } from '../helpers/app';
import { complete, configurePayments, startTestPayment } from '../helpers/payments-fixtures';

/** Receipts of paid transactions: merchant and client routes, totals, tax, refunds, tenancy, GraphQL links. */

let t: TestApp;
let cid: string;
let loginKey: string;

beforeAll(async () => {
  t = await createTestApp();
  cid = (await t.company('Skaistumkopšanas salons Ērglis', 'Europe/Riga')).id;
  expect((await configurePayments(t, cid)).status).toBe(200);
  loginKey = await t.keyWith({ [cid]: ['client.login'] });
});
afterAll(async () => t?.close());

async function client(email: string): Promise<{ token: string; id: string }> {
  const r = await t.call('POST', '/v1/client/auth/login', { key: loginKey, body: { companyID: cid, email, externalUserID: email } });
  expect(r.status).toBe(200);
  const profile = await t.call('GET', '/v1/client/profile', { token: r.body.accessToken });
  return { token: r.body.accessToken, id: profile.body.id };
}

/** A transaction over the given items (item id -> amount), paid unless told otherwise. */
async function transaction(
  amounts: Record<string, number>,
  opts: { pay?: boolean; clientId?: string; taxInclusive?: boolean; taxRate?: number } = {},
): Promise<string> {
  const itemIDs = Object.keys(amounts);
  const total = Object.values(amounts).reduce((a, b) => a + b, 0);
  const started = await startTestPayment(t, cid, {
    itemIDs,
    perItemAmounts: amounts,
    amount: total,
    clientId: opts.clientId ?? null,
    taxInclusive: opts.taxInclusive ?? true,
    taxRate: opts.taxRate ?? 21,
    description: 'Matu griezums un manikīrs',
  });
  if (opts.pay !== false) expect((await complete(t, started!.transactionId, 'success')).status).toBe(200);
  return started!.transactionId;
}

const receiptUrl = (tx: string, c = cid) => `/v1/companies/${c}/payments/${tx}/receipt`;

/** The amount printed on the same line as `label`. */
function amountBeside(page: PdfPageView, label: string): string | undefined {
  const row = page.items.find((i) => i.str === label);
  if (!row) throw new Error(`no "${label}" on the receipt: ${pageText(page)}`);
  return page.items.find((i) => Math.abs(i.y - row.y) < 0.5 && /^-?€/.test(i.str))?.str;
}

describe('receipts', () => {
  it('prints a paid transaction: company, id, local date, items, tax included and total', async () => {
    const [a, b] = [newId(), newId()];
    const tx = await transaction({ [a]: 2500, [b]: 1500 });
    const r = await t.call('GET', receiptUrl(tx));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="receipt-${tx}.pdf"`);
    const [page] = (await readPdf(r.raw)).pages;
    const text = pageText(page);
    expect(text).toContain('Skaistumkopšanas salons Ērglis');
    expect(text).toContain(tx);
    expect(text).toContain('Matu griezums un manikīrs');
    expect(text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d EET/);
    expect(text).toContain(`Booking 1 of 2 · ${a}`);
    expect(amountBeside(page, `Booking 1 of 2 · ${a}`)).toBe('€25.00');
    expect(amountBeside(page, `Booking 2 of 2 · ${b}`)).toBe('€15.00');
    expect(amountBeside(page, 'Total')).toBe('€40.00');
    expect(amountBeside(page, 'Includes tax 21%')).toBe('€6.94');
    expect(amountBeside(page, 'Net amount')).toBe('€33.06');
  });

  it('lists refunds and what stays paid after them', async () => {
    const [a, b] = [newId(), newId()];
    const tx = await transaction({ [a]: 3000, [b]: 1000 }, { taxInclusive: false, taxRate: 9 });
    const refund = await t.call('POST', `/v1/companies/${cid}/payments/${tx}/refunds`, {
      body: { itemID: b, percent: 100, reason: 'Atcelts' },
    });
    expect(refund.status).toBe(201);
    const [page] = (await readPdf((await t.call('GET', receiptUrl(tx))).raw)).pages;
    const text = pageText(page);
    expect(text).toContain('Paid, partially refunded');
    expect(text).toContain(`Booking ${b}: Atcelts`);
    expect(amountBeside(page, 'Net amount')).toBe('€36.70');
    expect(amountBeside(page, 'Tax 9%')).toBe('€3.30');
    expect(amountBeside(page, 'Total')).toBe('€40.00');
    expect(amountBeside(page, 'Refunded')).toBe('-€10.00');
    expect(amountBeside(page, 'Paid after refunds')).toBe('€30.00');
  });

  it('has no receipt for an unpaid transaction (409), an unknown one or one of another company (404)', async () => {
    const pending = await transaction({ [newId()]: 500 }, { pay: false });
    const r = await t.call('GET', receiptUrl(pending));
    expect([r.status, r.body.code]).toEqual([409, 'conflict']);
    expect((await t.call('GET', receiptUrl(newId()))).status).toBe(404);
    expect((await t.call('GET', receiptUrl('nope'))).status).toBe(400);
    const paid = await transaction({ [newId()]: 500 });
    const sister = (await t.company('Sister')).id;
    expect((await t.call('GET', receiptUrl(paid, sister))).status).toBe(404);
    expect((await t.call('GET', receiptUrl(paid), { key: await t.keyWith({ [cid]: ['payments.read'] }) })).status).toBe(200);
    expect((await t.call('GET', receiptUrl(paid), { key: await t.keyWith({ [cid]: ['pdf.read'] }) })).status).toBe(403);
    expect((await t.call('GET', receiptUrl(paid), { key: null })).status).toBe(401);
  });

  it("gives a client the receipts of the client's own paid transactions only", async () => {
    const ilze = await client('ilze@example.com');
    const janis = await client('janis@example.com');
    const mine = await transaction({ [newId()]: 1200 }, { clientId: ilze.id });
    const r = await t.call('GET', `/v1/client/payments/${mine}/receipt`, { token: ilze.token });
    expect(r.status).toBe(200);
    const [page] = (await readPdf(r.raw)).pages;
    expect(amountBeside(page, 'Total')).toBe('€12.00');
    expect((await t.call('GET', `/v1/client/payments/${mine}/receipt`, { token: janis.token })).status).toBe(404);
    expect((await t.call('GET', `/v1/client/payments/${mine}/receipt`)).status).toBe(401);
    const unpaid = await transaction({ [newId()]: 1200 }, { clientId: ilze.id, pay: false });
    expect((await t.call('GET', `/v1/client/payments/${unpaid}/receipt`, { token: ilze.token })).status).toBe(409);
  });

  it('links the receipt from GraphQL transactions once they are paid', async () => {
    const ilze = await client('ilze@example.com');
    const paid = await transaction({ [newId()]: 700 }, { clientId: ilze.id });
    const pending = await transaction({ [newId()]: 700 }, { clientId: ilze.id, pay: false });
    const merchant = await t.gql(`query($c: ID!) { payments(companyID: $c, limit: 100) { transactions { id receiptUrl } } }`, { c: cid });
    const byId = new Map(merchant.body.data.payments.transactions.map((x: any) => [x.id, x.receiptUrl]));
    expect(byId.get(paid)).toBe(`${t.deps.config.publicUrl}/v1/companies/${cid}/payments/${paid}/receipt`);
    expect(byId.get(pending)).toBeNull();
    const mine = await t.gql(`{ clientPayments { transactions { id receiptUrl } } }`, {}, { key: null, token: ilze.token });
    const own = new Map(mine.body.data.clientPayments.transactions.map((x: any) => [x.id, x.receiptUrl]));
    expect(own.get(paid)).toBe(`${t.deps.config.publicUrl}/v1/client/payments/${paid}/receipt`);
    expect(own.get(pending)).toBeNull();
  });
});
