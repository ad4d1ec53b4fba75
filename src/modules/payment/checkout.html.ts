import { minorDigits } from '../../shared/money';

/** HTML of the test provider's hosted pages. Every interpolated value goes through `esc`. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"'`]/g, (ch) => ENTITIES[ch]);
}

/** `1250` EUR -> `12.50 EUR`; `500` JPY -> `500 JPY`. */
export function formatAmount(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  const major = Math.floor(abs / 10 ** digits);
  const minor = digits ? `.${String(abs % 10 ** digits).padStart(digits, '0')}` : '';
  return `${sign}${major}${minor} ${currency}`;
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}.amount{font-size:2rem;margin:1rem 0}.note{color:#666;font-size:.9rem}
button{font-size:1rem;padding:.6rem 1.2rem;margin:.3rem .3rem .3rem 0;border-radius:.3rem;border:1px solid #888;cursor:pointer}
button.pay{background:#1a7f37;color:#fff;border-color:#1a7f37}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}

export interface CheckoutView {
  id: string;
  amount: number;
  currency: string;
  status: string;
  description: string | null;
}

/** The checkout page: the amount and, while the payment is pending, Pay, Fail and Cancel. */
export function checkoutPage(tx: CheckoutView, completeUrl: string): string {
  const amount = `<p class="amount">${esc(formatAmount(tx.amount, tx.currency))}</p>`;
  const about = tx.description ? `<p>${esc(tx.description)}</p>` : '';
  if (tx.status !== 'pending') {
    return page(
      'Payment',
      `<h1>Test payment</h1>${amount}${about}<p>This payment is ${esc(tx.status.replace('_', ' '))}; nothing is left to do.</p>`,
    );
  }
  const form = `<form method="post" action="${esc(completeUrl)}">
<button class="pay" type="submit" name="outcome" value="success">Pay</button>
<button type="submit" name="outcome" value="failure">Fail</button>
<button type="submit" name="outcome" value="cancel">Cancel</button>
</form>`;
  return page(
    'Payment',
    `<h1>Test payment</h1>${amount}${about}${form}<p class="note">Test provider: no money moves. Transaction ${esc(tx.id)}.</p>`,
  );
}

const DONE_WORDS: Record<string, string> = { paid: 'Payment completed', failed: 'Payment failed', cancelled: 'Payment cancelled' };

/** Shown after completion when the company configured no redirect URL for the outcome. */
export function completedPage(tx: CheckoutView): string {
  const title = DONE_WORDS[tx.status] ?? 'Payment completed';
  return page(
    title,
    `<h1>${esc(title)}</h1><p class="amount">${esc(formatAmount(tx.amount, tx.currency))}</p><p>The payment is ${esc(tx.status.replace('_', ' '))}. You can close this page.</p>`,
  );
}

/** Headers of every hosted page: no scripts, no framing, nothing cached or leaked by referrer. */
export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};
