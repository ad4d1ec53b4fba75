import type { Attachment, ParsedMail } from 'mailparser';
import { PDFDocument } from 'pdf-lib';
import { pageText, makeTemplate, readPdf } from '../../src/modules/document/testkit';
import { TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';
import { upload } from '../helpers/pdf-fixtures';
import { mailTestApp } from '../helpers/smtp-inbox';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';

/**
 * The PDFs of paid things ride with their e-mails: `payment.receipt` carries the receipt,
 * `giftcard.purchased` the voucher, `subscription.activated` the membership card, each made by
 * the document module when the message is sent (the outbox keeps no document), read back here
 * with pdf-lib (pages) and PDF.js (text).
 */
jest.setTimeout(90_000);

const clock = new TestClock(Date.parse('2031-03-01T10:00:00Z'));
let t: TestApp;
let shop: Shop;
let f: SubscriptionFixtures;

const mail = mailTestApp(clock, async (m) => {
  t = m.t;
  shop = await Shop.open(t, 'Spa Jūrmala', 'Europe/Riga');
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
  f = new SubscriptionFixtures(t, shop.companyId);
  await f.settings({ currency: 'EUR', taxInclusive: true, taxRate: 21, cartExpiration: 'PT15M' });
});
const { inbox } = mail;

const deliver = () => mail.deliver();
const txId = (url: string) => url.split('/').pop()!;
const GIFT = `/v1/companies/{cid}/plugins/giftcards`;
const gift = () => GIFT.replace('{cid}', shop.companyId);

/** The one PDF attached to a message: its parsed attachment, its page count and its text as PDF.js reads it. */
async function pdfOf(mail: ParsedMail): Promise<{ attachment: Attachment; pages: number; text: string }> {
  const pdfs = mail.attachments.filter((a) => a.contentType === 'application/pdf');
  expect(pdfs).toHaveLength(1);
  const [attachment] = pdfs;
  expect(attachment.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const pages = (await PDFDocument.load(new Uint8Array(attachment.content))).getPageCount();
  const text = (await readPdf(attachment.content)).pages.map(pageText).join('\n');
  return { attachment, pages, text };
}

const bySubject = (mails: ParsedMail[], re: RegExp) => {
  const found = mails.filter((m) => re.test(m.subject ?? ''));
  expect(found).toHaveLength(1);
  return found[0];
};

async function buyGiftCard(email: string): Promise<{ contract: any; txId: string }> {
  const g = await t.call('POST', `${gift()}/giftcards`, {
    body: { title: 'Spa diena Ķemeros', amount: 5000, currency: 'EUR', validityDuration: 'P365D', taxInclusive: true, taxRate: 21 },
  });
  expect(g.status).toBe(201);
  const token = await shop.login(email, t.adminKey);
  const order = await t.call('POST', `${gift()}/client/orders`, { token, body: { giftCardID: g.body.id } });
  expect(order.status).toBe(200);
  const tx = txId(order.body.item.paymentURL);
  clock.advance(60_000);
  expect((await complete(t, tx, 'success')).status).toBe(200);
  const paid = await t.call('POST', `${gift()}/contracts/search`, { body: { ids: [order.body.item.id] } });
  return { contract: paid.body.items[0], txId: tx };
}

it('a paid gift card: the voucher PDF with the code rides with giftcard.purchased, the receipt PDF with payment.receipt', async () => {
  const { contract, txId: tx } = await buyGiftCard('gina@example.com');
  expect(contract.status).toBe('active');
  // the outbox holds no document: the record's data only
  const [row] = await t.deps.orm.em
    .fork()
    .getConnection()
    .execute(`select max(octet_length(coalesce(data::text, ''))) as n from notification_message where company_id = ?`, [shop.companyId]);
  expect(Number(row.n)).toBeLessThan(4000);

  await deliver();
  const mails = inbox.to('gina@example.com');
  expect(mails).toHaveLength(2);

  const voucher = await pdfOf(bySubject(mails, /^Your gift card from Spa Jūrmala/));
  expect(voucher.attachment.filename).toBe('gift-card.pdf');
  expect(voucher.pages).toBe(1);
  for (const s of [contract.code, 'Spa diena Ķemeros', '50.00 EUR', 'Spa Jūrmala']) expect(voucher.text).toContain(s);

  const receipt = await pdfOf(bySubject(mails, /^Payment receipt from Spa Jūrmala/));
  expect(receipt.attachment.filename).toBe('receipt.pdf');
  expect(receipt.pages).toBeGreaterThanOrEqual(1);
  for (const s of ['Spa Jūrmala', tx, '50.00']) expect(receipt.text).toContain(s);

  // the download the merchant gets is the same document
  const download = await t.call('GET', `/v1/companies/${shop.companyId}/payments/${tx}/receipt`);
  expect(download.status).toBe(200);
  expect(pageText((await readPdf(download.raw)).pages[0])).toContain(tx);
});

it("a company's voucher template is drawn with the purchase's values for the e-mail, as for the download", async () => {
  const g = await t.call('POST', `${gift()}/giftcards`, { body: { title: 'Designed card', amount: 2000, currency: 'EUR' } });
  const created = await upload(t, 'POST', `/v1/companies/${shop.companyId}/pdf-templates/gift_card/${g.body.id}`, {
    file: await makeTemplate(500, 300, 'Voucher design'),
    fields: [
      { name: 'code', x: 40, y: 250, fontSize: 18 },
      { name: 'amount', x: 40, y: 200 },
    ],
  });
  expect(created.status).toBe(201);
  const token = await shop.login('designed@example.com', t.adminKey);
  const order = await t.call('POST', `${gift()}/client/orders`, { token, body: { giftCardID: g.body.id } });
  expect(order.status).toBe(200);
  expect((await complete(t, txId(order.body.item.paymentURL), 'success')).status).toBe(200);
  const code = (await t.call('POST', `${gift()}/contracts/search`, { body: { ids: [order.body.item.id] } })).body.items[0].code;
  await deliver();
  const voucher = await pdfOf(bySubject(inbox.to('designed@example.com'), /^Your gift card/));
  const view = await readPdf(voucher.attachment.content);
  expect([Math.round(view.pages[0].width), Math.round(view.pages[0].height)]).toEqual([500, 300]);
  for (const s of ['Voucher design', code, '20.00 EUR']) expect(voucher.text).toContain(s);
});

it('an activated subscription: the membership card PDF rides with subscription.activated', async () => {
  const sub = await f.subscription({ title: 'Sporta klubs: ģimenes abonements', duration: 'P30D', limitations: { bookingsCount: 4 } });
  await f.price([sub], 3000);
  const token = await shop.login('member@example.com', t.adminKey);
  const base = `/v1/companies/${shop.companyId}/plugins/subscription/client`;
  expect((await t.call('POST', `${base}/cart`, { token, body: { items: [{ subscriptionID: sub }] } })).status).toBe(200);
  const checkout = await t.call('POST', `${base}/cart/checkout`, { token });
  expect(checkout.status).toBe(200);
  expect((await complete(t, txId(checkout.body.paymentURL), 'success')).status).toBeLessThan(400);
  const bought = (await t.call('GET', `${base}/purchases/${checkout.body.items[0].id}`, { token })).body;
  expect(bought.status).toBe('active');
  await deliver();
  const mails = inbox.to('member@example.com');
  const card = await pdfOf(bySubject(mails, /^Your subscription is active: Sporta klubs/));
  expect(card.attachment.filename).toBe('membership.pdf');
  expect(card.pages).toBe(1);
  for (const s of [bought.code, 'Sporta klubs: ģimenes abonements', 'member@example.com']) expect(card.text).toContain(s);
  // and its payment's receipt
  await pdfOf(bySubject(mails, /^Payment receipt/));
});

it('a booking message carries no PDF', async () => {
  const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' });
  const c = await t.call('POST', `${shop.base}/clients`, { body: { externalUserID: 'plain', email: 'plain@example.com' } });
  const b = await t.call('POST', `${shop.base}/bookings`, {
    body: { serviceID: sid, resourceID: rids[0], startTime: '2031-04-01T07:00:00Z', clientID: c.body.id },
  });
  expect(b.status).toBe(200);
  await deliver();
  const [mail] = inbox.to('plain@example.com');
  expect(mail.attachments.map((a) => a.contentType)).toEqual([expect.stringMatching(/^text\/calendar/)]);
});
