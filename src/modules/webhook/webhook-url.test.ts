import { addressesFor, checkWebhookUrl, isLoopback, literalAddress, nonPublicKind, NOT_PUBLIC, numericIPv4 } from './webhook-url';

describe('checkWebhookUrl', () => {
  it('accepts https to any public host and normalises', () => {
    expect(checkWebhookUrl('https://Hooks.Example.com/in?x=1', false)).toEqual({ ok: true, url: 'https://hooks.example.com/in?x=1' });
    expect(checkWebhookUrl('https://203.0.113.5:8443/', false).ok).toBe(true);
  });
  it('refuses http without the development flag, even to loopback', () => {
    expect(checkWebhookUrl('http://127.0.0.1:3000/h', false)).toEqual({ ok: false, message: 'must be an https URL' });
    expect(checkWebhookUrl('http://example.com/h', false).ok).toBe(false);
  });
  it('accepts http to loopback hosts only with the flag', () => {
    for (const u of ['http://127.0.0.1:3000/h', 'http://localhost/h', 'http://[::1]:9/h', 'http://127.1.2.3/', 'http://app.localhost/']) {
      expect(checkWebhookUrl(u, true).ok).toBe(true);
    }
    for (const u of ['http://example.com/h', 'http://10.0.0.1/', 'http://128.0.0.1/', 'http://localhost.example.com/', 'http://[::2]/']) {
      expect(checkWebhookUrl(u, true).ok).toBe(false);
    }
  });
  it('refuses other schemes, relative URLs, credentials and very long URLs', () => {
    for (const u of ['ftp://example.com/', 'javascript:alert(1)', '/relative', 'example.com', '', 'https://user:pw@example.com/']) {
      expect(checkWebhookUrl(u, true).ok).toBe(false);
    }
    expect(checkWebhookUrl(`https://example.com/${'a'.repeat(2048)}`, false)).toEqual({
      ok: false,
      message: 'must be at most 2048 characters',
    });
  });
  it('recognises loopback names', () => {
    expect(isLoopback('LOCALHOST')).toBe(true);
    expect(isLoopback('localhost.')).toBe(true);
    expect(isLoopback('[::1]')).toBe(true);
    expect(isLoopback('127.0.0.1.nip.io')).toBe(false);
  });

  // Every spelling of an internal address, as a URL: refused without the flag.
  const refused: [string, string][] = [
    ['https://127.0.0.1/', 'loopback'],
    ['https://127.255.0.9:8443/h', 'loopback'],
    ['https://localhost/', 'localhost name'],
    ['https://LOCALHOST./', 'localhost name, trailing dot'],
    ['https://api.localhost/', 'a *.localhost name'],
    ['https://[::1]/', 'IPv6 loopback'],
    ['https://[0:0:0:0:0:0:0:1]/', 'IPv6 loopback, long form'],
    ['https://169.254.169.254/latest/meta-data', 'link-local (cloud metadata)'],
    ['https://10.0.0.1/', 'private'],
    ['https://172.16.5.4/', 'private'],
    ['https://172.31.255.255/', 'private'],
    ['https://192.168.1.1/', 'private'],
    ['https://100.64.0.1/', 'CGNAT'],
    ['https://100.127.255.254/', 'CGNAT'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://239.255.255.250/', 'multicast'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://0/', 'unspecified, one number'],
    ['https://255.255.255.255/', 'broadcast'],
    ['https://[::]/', 'IPv6 unspecified'],
    ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
    ['https://[::ffff:7f00:1]/', 'IPv4-mapped loopback, hex'],
    ['https://[0:0:0:0:0:ffff:a00:1]/', 'IPv4-mapped private, long form'],
    ['https://[::ffff:8.8.8.8]/', 'IPv4-mapped public: mapped addresses are refused whatever they carry'],
    ['https://[::127.0.0.1]/', 'IPv4-compatible'],
    ['https://[::8.8.8.8]/', 'IPv4-compatible public'],
    ['https://[fe80::1]/', 'IPv6 link-local'],
    ['https://[fd00::1]/', 'unique-local'],
    ['https://[fc12:3456::1]/', 'unique-local'],
    ['https://[ff02::1]/', 'IPv6 multicast'],
    ['https://[fec0::1]/', 'site-local'],
    ['https://[64:ff9b::a00:1]/', 'NAT64 of 10.0.0.1'],
    ['https://[64:ff9b::127.0.0.1]/', 'NAT64 of loopback, dotted'],
    ['https://[2002:7f00:1::1]/', '6to4 of loopback'],
    ['https://2130706433/', 'decimal'],
    ['https://0x7f000001/', 'hex'],
    ['https://0X7F.0.0.1/', 'hex part'],
    ['https://0177.0.0.1/', 'octal'],
    ['https://017700000001/', 'octal, one number'],
    ['https://00000177.0.0.1/', 'octal, zero-padded'],
    ['https://127.1/', 'short form'],
    ['https://127.0.1/', 'short form, three parts'],
    ['https://10.1/', 'short form, private'],
    ['https://0xa9fea9fe/', 'hex link-local'],
    ['https://127.0.0.1./', 'trailing dot'],
    ['https://%31%32%37.0.0.1/', 'percent-encoded'],
    ['https://127。0。0。1/', 'ideographic full stops'],
    ['http://127.0.0.1/', 'http'],
  ];
  it.each(refused)('refuses %s (%s)', (url) => {
    expect(checkWebhookUrl(url, false).ok).toBe(false);
  });

  const allowed: [string, string][] = [
    ['https://example.com/h', 'a name (resolved later)'],
    ['https://8.8.8.8/', 'public IPv4'],
    ['https://134744072/', 'public IPv4, decimal'],
    ['https://0x08080808/', 'public IPv4, hex'],
    ['https://100.63.255.255/', 'just below CGNAT'],
    ['https://100.128.0.0/', 'just above CGNAT'],
    ['https://172.15.255.255/', 'just below 172.16/12'],
    ['https://172.32.0.0/', 'just above 172.16/12'],
    ['https://[2606:4700:4700::1111]/', 'public IPv6'],
    ['https://[64:ff9b::808:808]/', 'NAT64 of a public address'],
    ['https://127.0.0.1.nip.io/', 'a name that merely starts with digits'],
  ];
  it.each(allowed)('accepts %s (%s)', (url) => {
    expect(checkWebhookUrl(url, false).ok).toBe(true);
  });

  it('says why a host is refused, without the address class', () => {
    expect(checkWebhookUrl('https://10.0.0.1/', false)).toEqual({ ok: false, message: NOT_PUBLIC });
  });
  it('lets everything https through with the development flag', () => {
    for (const u of ['https://10.0.0.1/', 'https://169.254.169.254/', 'https://[::1]/']) expect(checkWebhookUrl(u, true).ok).toBe(true);
  });
});

describe('address classification', () => {
  it('reads every numeric IPv4 form on its own (not only after URL parsing)', () => {
    expect(numericIPv4('2130706433')).toBe('127.0.0.1');
    expect(numericIPv4('0x7f000001')).toBe('127.0.0.1');
    expect(numericIPv4('0177.0.0.1')).toBe('127.0.0.1');
    expect(numericIPv4('127.1')).toBe('127.0.0.1');
    expect(numericIPv4('0x7f.1')).toBe('127.0.0.1');
    expect(numericIPv4('127.0.0.1.')).toBe('127.0.0.1');
    expect(numericIPv4('0')).toBe('0.0.0.0');
    expect(numericIPv4('0x')).toBe('0.0.0.0'); // as URL parsing reads it
    expect(numericIPv4('4294967295')).toBe('255.255.255.255');
    for (const h of ['4294967296', '256.0.0.1', '08.0.0.1', '1.2.3.4.5', 'example.com', '1..2', '127.0.0.1x', '']) {
      expect(numericIPv4(h)).toBeNull();
    }
    expect(literalAddress('[::ffff:7f00:1]')).toBe('::ffff:7f00:1');
    expect(literalAddress('example.com')).toBeNull();
  });
  it('names the class of non-public addresses', () => {
    expect(nonPublicKind('127.0.0.1')).toBe('loopback');
    expect(nonPublicKind('::1')).toBe('loopback');
    expect(nonPublicKind('10.2.3.4')).toBe('private');
    expect(nonPublicKind('169.254.169.254')).toBe('link-local');
    expect(nonPublicKind('100.64.0.1')).toBe('CGNAT');
    expect(nonPublicKind('fd00::1')).toBe('unique-local');
    expect(nonPublicKind('::ffff:127.0.0.1')).toBe('IPv4-mapped');
    expect(nonPublicKind('::ffff:8.8.8.8')).toBe('IPv4-mapped');
    expect(nonPublicKind('::7f00:1')).toBe('IPv4-compatible');
    expect(nonPublicKind('::')).toBe('unspecified');
    expect(nonPublicKind('0.0.0.0')).toBe('unspecified');
    expect(nonPublicKind('64:ff9b::10.0.0.1')).toBe('private');
    expect(nonPublicKind('2002:a00:1::')).toBe('private');
    expect(nonPublicKind('8.8.8.8')).toBeNull();
    expect(nonPublicKind('2a00:1450:4001:80b::200e')).toBeNull();
  });
});

describe('addressesFor', () => {
  const table: Record<string, string[]> = {
    'public.test': ['93.184.216.34'],
    'inside.test': ['10.0.0.7'],
    'mixed.test': ['93.184.216.34', '127.0.0.1'],
    'v6.test': ['::1'],
  };
  const lookup = async (h: string) => {
    const a = table[h];
    if (!a) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  it('refuses a name when any resolved address is internal', async () => {
    expect(await addressesFor('public.test', false, lookup)).toEqual({ ok: true, addresses: [{ address: '93.184.216.34', family: 4 }] });
    for (const h of ['inside.test', 'mixed.test', 'v6.test', 'localhost', '127.0.0.1', '[::1]']) {
      expect(await addressesFor(h, false, lookup)).toEqual({ ok: false, refused: true, message: NOT_PUBLIC });
    }
  });
  it('reports a name that does not resolve as not refused', async () => {
    expect(await addressesFor('nowhere.test', false, lookup)).toEqual({
      ok: false,
      refused: false,
      message: 'the host name could not be resolved (ENOTFOUND)',
    });
  });
  it('does not resolve literals, and allows internal addresses with the development flag', async () => {
    const never = () => Promise.reject(new Error('resolved a literal'));
    expect(await addressesFor('[::1]', true, never)).toEqual({ ok: true, addresses: [{ address: '::1', family: 6 }] });
    expect(await addressesFor('inside.test', true, lookup)).toMatchObject({ ok: true });
  });
});
