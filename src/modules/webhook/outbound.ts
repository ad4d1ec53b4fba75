import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AppDeps, HostLookup } from '../../kernel/context';
import { addressesFor, checkWebhookUrl, type ResolvedAddress } from './webhook-url';

/**
 * One POST to a webhook endpoint, to an address that was checked: the host name is resolved
 * once, every address it resolved to is checked (unless WEBHOOK_ALLOW_INSECURE), and the
 * connection is made to those addresses only (the socket's lookup answers them), while the
 * Host header, TLS SNI and certificate check keep the URL's name. A name that changes its
 * answer between the check and the connection (DNS rebinding) changes nothing.
 */

export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true });

/** The server's resolver for outbound requests. */
export const lookupOf = (deps: AppDeps): HostLookup => deps.lookupHost ?? systemLookup;

/** How long saving a URL waits for its name to resolve before it accepts it unchecked (deliveries check again). */
const SAVE_LOOKUP_MS = 3000;

/**
 * Save time: without WEBHOOK_ALLOW_INSECURE, a URL whose name resolves to an internal address
 * is refused (the message, or null when accepted). A name that does not resolve (yet), or not
 * within SAVE_LOOKUP_MS, is accepted: its deliveries resolve and check it again, and fail
 * while it does not resolve.
 */
export async function refusedAtSave(deps: AppDeps, url: string): Promise<string | null> {
  if (deps.config.webhookAllowInsecure) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), SAVE_LOOKUP_MS);
  });
  try {
    const r = await Promise.race([addressesFor(new URL(url).hostname, false, lookupOf(deps)), late]);
    return r && !r.ok && r.refused ? r.message : null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Kept-alive connections, one pool per setting of WEBHOOK_ALLOW_INSECURE: a socket opened
 * without the address check is never handed to a request that needs it (a process has one
 * setting; tests run servers with both).
 */
const pools = new Map<boolean, { http: http.Agent; https: https.Agent }>();
function poolFor(allowInsecure: boolean) {
  let p = pools.get(allowInsecure);
  if (!p) pools.set(allowInsecure, (p = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) }));
  return p;
}

/** A request that was not sent, or failed; `refused`: the URL or its addresses are not allowed. */
export class OutboundError extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

export interface OutboundAnswer {
  status: number;
  /** at most `excerptBytes` of the body */
  excerpt: Buffer;
}

/** Answers the socket's lookup with the checked addresses only. */
function pinned(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const cb = callback as (err: Error | null, address: string | ResolvedAddress[], family?: number) => void;
    if (options.all) cb(null, addresses);
    else cb(null, addresses[0].address, addresses[0].family);
  };
}

/** Reads at most `limit` bytes of the answer, then lets the rest go. */
function readExcerpt(res: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      res.removeAllListeners('data');
      resolve(Buffer.concat(chunks).subarray(0, limit));
    };
    res.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size >= limit) {
        done();
        res.destroy();
      }
    });
    res.on('end', done);
    res.on('error', done);
    res.on('close', done);
  });
}

/**
 * POSTs `body` to `url` within `timeoutMs` (resolution included); redirects are not followed.
 * Throws OutboundError: refused (not sent), unresolvable, unreachable, timed out.
 */
export async function postTo(
  url: string,
  opts: {
    body: string;
    headers: Record<string, string>;
    timeoutMs: number;
    allowInsecure: boolean;
    lookup: HostLookup;
    excerptBytes: number;
  },
): Promise<OutboundAnswer> {
  // Saved under another setting of WEBHOOK_ALLOW_INSECURE (or before this check existed).
  const checked = checkWebhookUrl(url, opts.allowInsecure);
  if (!checked.ok) throw new OutboundError(`refused: the endpoint's URL ${checked.message}`, true);
  const u = new URL(checked.url);
  const timedOut = () => new OutboundError(`timed out after ${opts.timeoutMs} ms`);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), opts.timeoutMs);
  });
  let req: http.ClientRequest | undefined;
  let answered = false;
  try {
    const resolved = await Promise.race([addressesFor(u.hostname, opts.allowInsecure, opts.lookup), deadline]);
    if (!resolved.ok)
      throw new OutboundError(resolved.refused ? `refused: the endpoint's host ${resolved.message}` : resolved.message, resolved.refused);
    const secure = u.protocol === 'https:';
    const pool = poolFor(opts.allowInsecure);
    const answer = new Promise<OutboundAnswer>((resolve, reject) => {
      req = (secure ? https : http).request(
        {
          protocol: u.protocol,
          hostname: u.hostname.replace(/^\[|\]$/g, ''),
          port: u.port || (secure ? 443 : 80),
          path: `${u.pathname}${u.search}`,
          method: 'POST',
          agent: secure ? pool.https : pool.http,
          lookup: pinned(resolved.addresses),
          headers: { ...opts.headers, host: u.host, 'content-length': String(Buffer.byteLength(opts.body)) },
        },
        (res) => {
          void readExcerpt(res, opts.excerptBytes).then((excerpt) => {
            answered = true;
            resolve({ status: res.statusCode ?? 0, excerpt });
          });
        },
      );
      req.on('error', (err: Error & { code?: string }) => reject(new OutboundError(`connection failed: ${err.code ?? err.message}`)));
      req.end(opts.body);
    });
    return await Promise.race([answer, deadline]);
  } finally {
    clearTimeout(timer);
    // Cut off by the deadline (or failed): the socket goes, so nothing is left waiting on it.
    if (req && !answered) req.destroy();
  }
}
