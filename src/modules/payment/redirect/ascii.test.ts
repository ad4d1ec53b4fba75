import { isHeaderSafeUrl, toAsciiUrl } from './ascii';
import { renderRedirect } from './template';
import { verifyRedirect } from './verify';

describe('toAsciiUrl', () => {
  it('leaves an ASCII URL exactly as it is, odd static text and placeholders included', () => {
    for (const url of ['https://shop.example/ok?a=%7e&b={{.ID}}#x', 'http://EXAMPLE.com:8080/A%2fB', 'https://[::1]:8443/p?q']) {
      expect(toAsciiUrl(url)).toBe(url);
    }
  });

  it('converts a non-ASCII host to punycode and keeps the port', () => {
    expect(toAsciiUrl('https://bücher.example:8443/x')).toBe('https://xn--bcher-kva.example:8443/x');
    expect(toAsciiUrl('https://ceļš.lv')).toBe('https://xn--ce-gqa2m.lv');
    expect(toAsciiUrl('https://💩.la/')).toBe('https://xn--ls8h.la/');
  });

  it('percent-encodes non-ASCII path, query, fragment and user info as UTF-8', () => {
    expect(toAsciiUrl('https://shop.example/ceļš/{{.ID}}?n=žēl&{{x}}#ā')).toBe(
      'https://shop.example/ce%C4%BC%C5%A1/{{.ID}}?n=%C5%BE%C4%93l&{{x}}#%C4%81',
    );
    expect(toAsciiUrl('https://ā@shop.example/')).toBe('https://%C4%81@shop.example/');
    expect(toAsciiUrl('https://shop.example/😀')).toBe('https://shop.example/%F0%9F%98%80');
  });

  it('has no answer for a host that is not a valid domain name, or for a lone surrogate', () => {
    expect(toAsciiUrl('https://a\u200db.example/')).toBeNull();
    expect(toAsciiUrl('https://shop.example/\uD800x')).toBeNull();
    expect(toAsciiUrl('https://shop.example/x\uDC00')).toBeNull();
  });

  it('keeps decoded query values, so signatures over the converted template verify', () => {
    const raw = 'https://grāmatas.example/ceļš?note=žēl-{{.ID}}&ķ={{.Amount}}';
    const ascii = toAsciiUrl(raw)!;
    const values = { ID: 'tx', ItemID: 'b', ItemIDs: 'b', ItemType: 'booking', Amount: 5, Currency: 'EUR' };
    const r = renderRedirect({ template: ascii, values, secret: 's'.repeat(40), now: 1_700_000_000_000, templating: true });
    if (!r.ok) throw new Error(r.message);
    expect(isHeaderSafeUrl(r.url)).toBe(true);
    const query = Object.fromEntries(new URL(r.url).searchParams);
    expect(query).toMatchObject({ note: 'žēl-tx', ķ: '5' });
    const provider = { enableUrlTemplating: true, successUrl: raw, failureUrl: null, cancelUrl: null, decryptSecret: () => 's'.repeat(40) };
    expect(
      verifyRedirect({ query, now: 1_700_000_000_000, settings: { paymentSettings: { preferredProvider: 'test' }, provider } }),
    ).toEqual({ valid: true });
  });
});

describe('isHeaderSafeUrl', () => {
  it('accepts printable ASCII only', () => {
    expect(isHeaderSafeUrl('https://shop.example/a?b=c#d')).toBe(true);
    expect(isHeaderSafeUrl('https://shop.example/ü')).toBe(false);
    expect(isHeaderSafeUrl('https://shop.example/a b')).toBe(false);
    expect(isHeaderSafeUrl('https://shop.example/\n')).toBe(false);
    expect(isHeaderSafeUrl('')).toBe(false);
  });
});
