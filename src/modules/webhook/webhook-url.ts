import { isIP } from 'node:net';

/**
 * Which URLs a webhook endpoint may have: `https` to any host; `http` only to a loopback host
 * (localhost, 127.0.0.0/8, ::1) and only when the server allows it (`WEBHOOK_ALLOW_INSECURE`,
 * development and tests). Credentials in the URL are refused: they would show in every listing.
 * Returns the normalised URL, or why it is refused.
 */
export function checkWebhookUrl(raw: string, allowInsecure: boolean): { ok: true; url: string } | { ok: false; message: string } {
  if (raw.length > 2048) return { ok: false, message: 'must be at most 2048 characters' };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute URL' };
  }
  if (u.username || u.password) return { ok: false, message: 'must not carry credentials' };
  if (!u.hostname) return { ok: false, message: 'must name a host' };
  if (u.protocol === 'https:') return { ok: true, url: u.toString() };
  if (u.protocol !== 'http:') return { ok: false, message: 'must be an https URL' };
  if (!allowInsecure) return { ok: false, message: 'must be an https URL' };
  if (!isLoopback(u.hostname)) return { ok: false, message: 'may use http only to a loopback host (localhost, 127.0.0.1, [::1])' };
  return { ok: true, url: u.toString() };
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.split('.')[0] === '127';
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1';
  return false;
}
