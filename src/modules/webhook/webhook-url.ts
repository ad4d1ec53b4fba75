import { BlockList, isIP } from 'node:net';

/**
 * Which URLs a webhook endpoint may have, and which addresses a delivery may connect to.
 *
 * `https` to a public host; `http` only to a loopback host (localhost, 127.0.0.0/8, ::1) and
 * only when the server allows it (`WEBHOOK_ALLOW_INSECURE`, development and tests). Without
 * that flag, a host that is (in any spelling) or resolves to a loopback, private, link-local,
 * unique-local, CGNAT, multicast, unspecified, reserved or IPv4-mapped/-compatible address is
 * refused: the delivery log would otherwise probe the server's own network. Credentials in the
 * URL are refused: they would show in every listing.
 */

type Family = 'ipv4' | 'ipv6';

/** Address ranges that are not on the public internet, by the name a refusal gives them. */
const RANGES: [kind: string, family: Family, network: string, prefix: number][] = [
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['loopback', 'ipv6', '::1', 128],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['unique-local', 'ipv6', 'fc00::', 7],
  ['CGNAT', 'ipv4', '100.64.0.0', 10],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['multicast', 'ipv6', 'ff00::', 8],
  ['IPv4-mapped', 'ipv6', '::ffff:0:0', 96],
  ['IPv4-compatible', 'ipv6', '::', 96],
  // Not routed on the internet either: IETF protocol assignments, benchmarking, the old class E
  // (and broadcast), deprecated site-local, discard-only, local-use NAT64.
  ['reserved', 'ipv4', '192.0.0.0', 24],
  ['reserved', 'ipv4', '198.18.0.0', 15],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['reserved', 'ipv6', 'fec0::', 10],
  ['reserved', 'ipv6', '100::', 64],
  ['reserved', 'ipv6', '64:ff9b:1::', 48],
];

/** One list per class and family: a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules and the reverse. */
const LISTS = (() => {
  const lists = new Map<string, { kind: string; family: Family; list: BlockList }>();
  for (const [kind, family, network, prefix] of RANGES) {
    const key = `${kind}/${family}`;
    if (!lists.has(key)) lists.set(key, { kind, family, list: new BlockList() });
    lists.get(key)!.list.addSubnet(network, prefix, family);
  }
  return [...lists.values()];
})();

/** The eight 16-bit groups of an IPv6 address (one `isIP` accepts). */
function ipv6Groups(a: string): number[] {
  let s = a.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted[1].split('.').map(Number);
    s = `${s.slice(0, -dotted[1].length)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, null];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === null ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.map((g) => parseInt(g, 16));
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * Why `address` (an IP literal without brackets) is not a public address ('loopback',
 * 'private', ...), or null when it is one. An IPv4 address carried in NAT64 (64:ff9b::/96) or
 * 6to4 (2002::/16) form is judged as itself.
 */
export function nonPublicKind(address: string): string | null {
  const family = isIP(address);
  if (!family) return 'not an IP address';
  const type: Family = family === 4 ? 'ipv4' : 'ipv6';
  for (const { kind, family: f, list } of LISTS) if (f === type && list.check(address, type)) return kind;
  if (type === 'ipv6') {
    const g = ipv6Groups(address);
    if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return nonPublicKind(v4(g[6], g[7]));
    if (g[0] === 0x2002) return nonPublicKind(v4(g[1], g[2]));
  }
  return null;
}

/**
 * The IPv4 address a host written in any of the numeric forms `inet_aton` reads stands for
 * (`2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`, a trailing dot), or null when `host` is
 * not one. URL parsing already turns these into dotted quads for http(s); this reads the
 * host itself, so the check does not rest on that.
 */
export function numericIPv4(host: string): string | null {
  const parts = host.replace(/\.$/, '').split('.');
  if (parts.length > 4 || parts.some((p) => p === '')) return null;
  const nums: number[] = [];
  for (const p of parts) {
    const m = /^0x([0-9a-f]*)$/i.exec(p);
    let n: number;
    if (m) n = m[1] ? parseInt(m[1], 16) : 0;
    else if (/^0[0-7]*$/.test(p)) n = parseInt(p, 8);
    else if (/^[1-9]\d*$/.test(p)) n = Number(p);
    else return null;
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  const value = nums.reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** The IP address `hostname` (as `URL.hostname` gives it) is written as, or null for a name. */
export function literalAddress(hostname: string): string | null {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (isIP(h) === 6) return h;
  return numericIPv4(h);
}

export function isLoopback(hostname: string): boolean {
  const h = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const literal = literalAddress(h);
  if (literal && isIP(literal) === 4) return literal.split('.')[0] === '127';
  if (literal) return literal === '::1' || literal === '0:0:0:0:0:0:0:1';
  return false;
}

/** What a refusal of a non-public host says (the same at save time and in the delivery log). */
export const NOT_PUBLIC = 'must be a public host: loopback, private, link-local and other internal addresses are refused';

export type UrlCheck = { ok: true; url: string } | { ok: false; message: string };

/**
 * Checks a URL as written (no name resolution): syntax, scheme, credentials, and without
 * `allowInsecure` a host that is an internal address in any spelling, or a localhost name.
 * Returns the normalised URL, or why it is refused.
 */
export function checkWebhookUrl(raw: string, allowInsecure: boolean): UrlCheck {
  if (raw.length > 2048) return { ok: false, message: 'must be at most 2048 characters' };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute URL' };
  }
  if (u.username || u.password) return { ok: false, message: 'must not carry credentials' };
  if (!u.hostname) return { ok: false, message: 'must name a host' };
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { ok: false, message: 'must be an https URL' };
  if (!allowInsecure) {
    if (u.protocol !== 'https:') return { ok: false, message: 'must be an https URL' };
    const literal = literalAddress(u.hostname);
    if (isLoopback(u.hostname) || (literal && nonPublicKind(literal))) return { ok: false, message: NOT_PUBLIC };
    return { ok: true, url: u.toString() };
  }
  if (u.protocol === 'http:' && !isLoopback(u.hostname)) {
    return { ok: false, message: 'may use http only to a loopback host (localhost, 127.0.0.1, [::1])' };
  }
  return { ok: true, url: u.toString() };
}

/** One resolved address of a host name. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * The addresses to connect to for `hostname` (a literal is its own address), or why none may
 * be used: without `allowInsecure`, every resolved address must be public (one internal
 * address among public ones refuses the name: which one a connection picks is not ours to
 * choose). `lookup` resolves names.
 */
export async function addressesFor(
  hostname: string,
  allowInsecure: boolean,
  lookup: (hostname: string) => Promise<ResolvedAddress[]>,
): Promise<{ ok: true; addresses: ResolvedAddress[] } | { ok: false; refused: boolean; message: string }> {
  if (!allowInsecure && isLoopback(hostname)) return { ok: false, refused: true, message: NOT_PUBLIC };
  const literal = literalAddress(hostname);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: literal, family: isIP(literal) }];
  else {
    try {
      addresses = await lookup(hostname.replace(/\.$/, ''));
    } catch (err) {
      const code = (err as { code?: string }).code;
      return { ok: false, refused: false, message: `the host name could not be resolved${code ? ` (${code})` : ''}` };
    }
    if (!addresses.length) return { ok: false, refused: false, message: 'the host name could not be resolved' };
  }
  if (!allowInsecure && addresses.some((a) => nonPublicKind(a.address))) {
    return { ok: false, refused: true, message: NOT_PUBLIC };
  }
  return { ok: true, addresses };
}
