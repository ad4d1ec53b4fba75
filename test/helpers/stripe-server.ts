import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/**
 * A local server that speaks the part of Stripe's API the `stripe` provider uses, for the real
 * `stripe` library to talk to (STRIPE_API_URL): create, retrieve and expire a Checkout Session,
 * and create a refund. It checks each request as Stripe does: `Authorization: Bearer sk_...` of
 * a known account, form encoding, integer amounts, lower-case currencies, the session's
 * lifetime (30 minutes to 24 hours), idempotency keys (the same key with the same parameters
 * answers the first answer again; with other parameters it is an `idempotency_error`), and
 * answers in Stripe's shapes and error bodies. Tests play the customer (`pay`, `expire`, ...)
 * and build the events Stripe would send.
 */

export interface StripeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** the raw form body */
  raw: string;
  /** the form body decoded into nested objects and arrays, as Stripe reads it */
  params: Record<string, any>;
}

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  account: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  payment_intent: string | null;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  line_items: { name: string; unit_amount: number; quantity: number; currency: string }[];
  payment_intent_metadata: Record<string, string>;
  expires_at: number;
  created: number;
  success_url: string;
  cancel_url: string;
  url: string | null;
  livemode: boolean;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  metadata: Record<string, string>;
  created: number;
}

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

/** `a[b][0][c]=v` pairs into nested objects and arrays. */
export function decodeForm(raw: string): Record<string, any> {
  const root: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: any = root;
    path.forEach((seg, i) => {
      if (i === path.length - 1) node[seg] = value;
      else node = node[seg] ??= {};
    });
  }
  const arrays = (v: any): any => {
    if (typeof v !== 'object' || v === null) return v;
    const keys = Object.keys(v);
    const out: any = keys.length && keys.every((k, i) => k === String(i)) ? keys.map((k) => v[k]) : v;
    for (const k of Object.keys(out)) out[k] = arrays(out[k]);
    return out;
  };
  return arrays(root);
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const INT = /^(0|[1-9]\d{0,12})$/;

export class FakeStripe {
  readonly requests: StripeRequest[] = [];
  readonly sessions = new Map<string, FakeSession>();
  readonly refunds = new Map<string, FakeRefund>();
  /** what new refunds start as (Stripe answers `pending` for some payment methods) */
  refundStatus: FakeRefund['status'] = 'succeeded';
  /** secret key -> account */
  private readonly accounts = new Map<string, string>();
  private readonly idempotent = new Map<string, { params: string; path: string; status: number; body: string }>();
  private failures: { match: (r: StripeRequest) => boolean; status: number; times: number; drop?: boolean }[] = [];
  private server!: Server;
  url = '';

  constructor(private readonly clock: () => number = () => Date.now()) {}

  /** A secret key of a new account (`sk_test_...`). */
  newKey(): string {
    const key = `sk_test_${randomBytes(16).toString('hex')}`;
    this.accounts.set(key, id('acct'));
    return key;
  }

  /** The next `times` requests matching answer `status` (or have their connection dropped). */
  fail(match: (r: StripeRequest) => boolean, status: number, times = 1, drop = false): void {
    this.failures.push({ match, status, times, drop });
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private now = () => Math.floor(this.clock() / 1000);

  // ---- the customer, and Stripe's own clock ---------------------------------------------------

  /** The customer pays the session (an asynchronous method leaves it complete but unpaid). */
  pay(sessionId: string, opts: { async?: boolean } = {}): FakeSession {
    const s = this.session(sessionId);
    if (s.status !== 'open') throw new Error(`session ${sessionId} is ${s.status}`);
    s.status = 'complete';
    s.payment_intent = id('pi');
    s.payment_status = opts.async ? 'unpaid' : 'paid';
    return s;
  }

  /** An asynchronous payment of a completed session arrives (or fails). */
  settleAsync(sessionId: string, paid: boolean): FakeSession {
    const s = this.session(sessionId);
    if (s.status !== 'complete' || s.payment_status !== 'unpaid') throw new Error('no asynchronous payment is on its way');
    if (paid) s.payment_status = 'paid';
    return s;
  }

  /** Stripe expires the session (its time is up). */
  expire(sessionId: string): FakeSession {
    const s = this.session(sessionId);
    if (s.status !== 'open') throw new Error(`session ${sessionId} is ${s.status}`);
    s.status = 'expired';
    s.url = null;
    return s;
  }

  session(sessionId: string): FakeSession {
    const s = this.sessions.get(sessionId);
    if (!s) throw new Error(`no session ${sessionId}`);
    return s;
  }

  /** The session as Stripe's API and events show it. */
  sessionJson(s: FakeSession): Record<string, unknown> {
    const { account: _a, line_items: _l, payment_intent_metadata: _m, ...json } = s;
    return json;
  }

  /** A Stripe event (as it arrives at a webhook endpoint) about `object`. */
  event(type: string, object: Record<string, unknown>, eventId = id('evt')): Record<string, unknown> {
    return {
      id: eventId,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: this.now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
  }

  sessionEvent(type: string, sessionId: string, eventId?: string): Record<string, unknown> {
    return this.event(type, this.sessionJson(this.session(sessionId)), eventId);
  }

  /** Requests to a path (method and path prefix). */
  calls(method: string, pathPrefix: string): StripeRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix));
  }

  // ---- the API ------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://stripe.local');
    const request: StripeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: req.headers,
      raw: req.method === 'GET' ? url.search.slice(1) : raw,
      params: decodeForm(req.method === 'GET' ? url.search.slice(1) : raw),
    };
    this.requests.push(request);
    const failure = this.failures.find((f) => f.times > 0 && f.match(request));
    if (failure) {
      failure.times--;
      if (failure.drop) return void req.socket.destroy();
      return this.send(res, failure.status, { error: { type: 'api_error', message: 'injected failure' } });
    }
    try {
      const account = this.authenticate(req);
      const key = req.headers['idempotency-key'];
      if (request.method === 'POST') {
        const type = String(req.headers['content-type'] ?? '');
        if (!type.startsWith('application/x-www-form-urlencoded'))
          throw new StripeError(400, 'invalid_request_error', 'Stripe takes form-encoded bodies');
        if (typeof key === 'string') {
          const seen = this.idempotent.get(`${account}\n${key}`);
          if (seen) {
            if (seen.params !== raw || seen.path !== request.path)
              throw new StripeError(
                400,
                'idempotency_error',
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
              );
            res.setHeader('idempotent-replayed', 'true');
            return this.sendRaw(res, seen.status, seen.body);
          }
        }
      }
      const [status, body] = this.route(account, request);
      const text = JSON.stringify(body);
      if (request.method === 'POST' && typeof key === 'string')
        this.idempotent.set(`${account}\n${key}`, { params: raw, path: request.path, status, body: text });
      return this.sendRaw(res, status, text);
    } catch (e) {
      if (!(e instanceof StripeError)) throw e;
      return this.send(res, e.status, { error: { type: e.type, message: e.message, code: e.code, param: e.param } });
    }
  }

  private authenticate(req: IncomingMessage): string {
    const auth = String(req.headers.authorization ?? '');
    const m = /^Bearer (sk_(test|live)_\w+)$/.exec(auth);
    const account = m && this.accounts.get(m[1]);
    if (!account) throw new StripeError(401, 'invalid_request_error', 'Invalid API Key provided');
    return account;
  }

  private route(account: string, r: StripeRequest): [number, unknown] {
    let m: RegExpExecArray | null;
    if (r.method === 'POST' && r.path === '/v1/checkout/sessions') return [200, this.createSession(account, r.params)];
    if ((m = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(r.path)) && r.method === 'GET')
      return [200, this.sessionJson(this.owned(account, m[1]))];
    if ((m = /^\/v1\/checkout\/sessions\/([\w-]+)\/expire$/.exec(r.path)) && r.method === 'POST') {
      const s = this.owned(account, m[1]);
      if (s.status !== 'open')
        throw new StripeError(400, 'invalid_request_error', `Only Checkout Sessions with a status in ["open"] can be expired.`);
      s.status = 'expired';
      s.url = null;
      return [200, this.sessionJson(s)];
    }
    if (r.method === 'POST' && r.path === '/v1/refunds') return [200, this.createRefund(account, r.params)];
    throw new StripeError(404, 'invalid_request_error', `Unrecognized request URL (${r.method}: ${r.path})`);
  }

  private owned(account: string, sessionId: string): FakeSession {
    const s = this.sessions.get(sessionId);
    if (!s || s.account !== account)
      throw new StripeError(404, 'invalid_request_error', `No such checkout.session: '${sessionId}'`, 'resource_missing');
    return s;
  }

  private createSession(account: string, p: Record<string, any>): FakeSession | Record<string, unknown> {
    const bad = (param: string, message: string) => new StripeError(400, 'invalid_request_error', message, 'parameter_invalid', param);
    if (p.mode !== 'payment') throw bad('mode', 'mode must be payment here');
    if (!Array.isArray(p.line_items) || !p.line_items.length) throw bad('line_items', 'line_items is required');
    const items = p.line_items.map((li: any, i: number) => {
      const pd = li.price_data ?? {};
      if (!/^[a-z]{3}$/.test(pd.currency ?? '')) throw bad(`line_items[${i}][price_data][currency]`, 'Invalid currency');
      if (!INT.test(pd.unit_amount ?? '')) throw bad(`line_items[${i}][price_data][unit_amount]`, 'Invalid integer');
      if (!INT.test(li.quantity ?? '') || li.quantity === '0') throw bad(`line_items[${i}][quantity]`, 'Invalid integer');
      const name = pd.product_data?.name;
      if (typeof name !== 'string' || !name.trim()) throw bad(`line_items[${i}][price_data][product_data][name]`, 'name is required');
      return { name, unit_amount: Number(pd.unit_amount), quantity: Number(li.quantity), currency: pd.currency };
    });
    if (new Set(items.map((i: { currency: string }) => i.currency)).size > 1)
      throw bad('line_items', 'All line items must share a currency');
    for (const u of ['success_url', 'cancel_url']) {
      if (typeof p[u] !== 'string' || !/^https?:\/\//.test(p[u])) throw bad(u, 'Not a valid URL');
    }
    const now = this.now();
    if (!INT.test(p.expires_at ?? '')) throw bad('expires_at', 'Invalid integer');
    const expiresAt = Number(p.expires_at);
    if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600)
      throw bad('expires_at', 'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.');
    const amount = items.reduce((sum: number, i: { unit_amount: number; quantity: number }) => sum + i.unit_amount * i.quantity, 0);
    if (amount < 50) throw bad('line_items', 'The Checkout Session total must be at least 50 cents');
    const sessionId = `cs_test_${randomBytes(24).toString('hex')}`;
    const s: FakeSession = {
      id: sessionId,
      object: 'checkout.session',
      account,
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: null,
      amount_total: amount,
      currency: items[0].currency,
      client_reference_id: p.client_reference_id ?? null,
      customer_email: p.customer_email ?? null,
      metadata: p.metadata ?? {},
      line_items: items,
      payment_intent_metadata: p.payment_intent_data?.metadata ?? {},
      expires_at: expiresAt,
      created: now,
      success_url: p.success_url,
      cancel_url: p.cancel_url,
      url: `https://checkout.stripe.test/c/pay/${sessionId}`,
      livemode: false,
    };
    this.sessions.set(sessionId, s);
    return this.sessionJson(s);
  }

  private createRefund(account: string, p: Record<string, any>): FakeRefund {
    const bad = (param: string, message: string, code = 'parameter_invalid') =>
      new StripeError(400, 'invalid_request_error', message, code, param);
    const session = [...this.sessions.values()].find((s) => s.account === account && s.payment_intent === p.payment_intent);
    if (!session) throw bad('payment_intent', `No such payment_intent: '${p.payment_intent}'`, 'resource_missing');
    if (session.payment_status !== 'paid') throw bad('payment_intent', 'This PaymentIntent has no successful charge to refund');
    if (!INT.test(p.amount ?? '') || p.amount === '0') throw bad('amount', 'Invalid positive integer');
    const refunded = [...this.refunds.values()]
      .filter((r) => r.payment_intent === session.payment_intent && r.status !== 'failed' && r.status !== 'canceled')
      .reduce((sum, r) => sum + r.amount, 0);
    if (refunded + Number(p.amount) > session.amount_total)
      throw bad('amount', `Refund amount is greater than unrefunded amount on charge`, 'charge_already_refunded');
    const r: FakeRefund = {
      id: id('re'),
      object: 'refund',
      amount: Number(p.amount),
      currency: session.currency,
      payment_intent: session.payment_intent!,
      charge: `ch_${session.payment_intent!.slice(3)}`,
      status: this.refundStatus,
      metadata: p.metadata ?? {},
      created: this.now(),
    };
    this.refunds.set(r.id, r);
    return r;
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    this.sendRaw(res, status, JSON.stringify(body));
  }

  private sendRaw(res: ServerResponse, status: number, text: string): void {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), 'stripe-version': '2026-10-28.endive' });
    res.end(text);
  }
}

/** A webhook signing secret (`whsec_...`). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

/** The `Stripe-Signature` header Stripe would send with `payload`, made by the library itself. */
export function signatureFor(payload: string, secret: string, timestampSec: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: timestampSec });
}
