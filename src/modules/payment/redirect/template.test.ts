import { computeSignature } from './signing';
import {
  escapeValue,
  MAX_REDIRECT_URL_LENGTH,
  renderRedirect,
  signedQueryKeys,
  validateTemplate,
  type RedirectValues,
  type RenderResult,
} from './template';

const SECRET = 'k'.repeat(40);
const NOW = 1_700_000_000_123; // ts 1700000000
const TS = '1700000000';
const VALUES: RedirectValues = {
  ID: '6f1c2d3e-0000-4000-8000-000000000001',
  ItemID: '6f1c2d3e-0000-4000-8000-0000000000b1',
  ItemIDs: ['6f1c2d3e-0000-4000-8000-0000000000b1', '6f1c2d3e-0000-4000-8000-0000000000b2'],
  ItemType: 'booking',
  PluginNamespace: null,
  Amount: 1250,
  Currency: 'EUR',
  ReferenceID: 'order 42',
};

function render(
  template: string,
  values: Partial<RedirectValues> = {},
  extra: { secret?: string | null; templating?: boolean; now?: number } = {},
): RenderResult {
  return renderRedirect({
    template,
    values: { ...VALUES, ...values },
    secret: 'secret' in extra ? extra.secret : SECRET,
    now: extra.now ?? NOW,
    templating: extra.templating ?? true,
  });
}

function url(result: RenderResult): string {
  if (!result.ok) throw new Error(`expected a URL, got ${result.message}`);
  return result.url;
}

function sigOf(u: string): string {
  return /[?&]sig=([0-9a-f]+)/.exec(u)?.[1] ?? '';
}

describe('validateTemplate', () => {
  it.each([
    'https://shop.example/thanks',
    'http://localhost:3000/return?x=1',
    'https://shop.example/b/{{.ID}}?item={{.ItemID}}&ids={{.ItemIDs}}&type={{.ItemType}}&ns={{.PluginNamespace}}&amt={{.Amount}}&cur={{.Currency}}&ref={{.ReferenceID}}',
    'https://shop.example/{{ .ID }}/{{.ItemType }}?ref=order-{{ .ReferenceID}}&utm_source=pay#done',
    'HTTPS://shop.example/{{.ID}}',
  ])('accepts %s', (u) => expect(validateTemplate(u)).toEqual({ ok: true }));

  it('requires the leading dot and says so', () => {
    expect(validateTemplate('https://shop.example/?id={{ID}}')).toEqual({
      ok: false,
      message: 'failed to process URL template: placeholder {{ID}} needs a leading dot ({{.ID}}): the dot is required',
    });
    const spaced = validateTemplate('https://shop.example/{{ Amount }}');
    expect(!spaced.ok && spaced.message).toMatch(/^failed to process URL template: .*the dot is required/);
  });

  it('names an unknown field', () => {
    const r = validateTemplate('https://shop.example/?x={{.Foo}}');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/^failed to process URL template: unknown field "Foo"/);
  });

  it('treats field names case-sensitively and suggests the right spelling', () => {
    const r = validateTemplate('https://shop.example/?x={{.id}}');
    expect(!r.ok && r.message).toMatch(/failed to process URL template: unknown field "id".*did you mean \{\{\.ID\}\}/);
  });

  it.each([
    ['an unclosed placeholder', 'https://shop.example/?id={{.ID}'],
    ['an unopened placeholder', 'https://shop.example/?id=.ID}}'],
    ['an opening without any close', 'https://shop.example/?id={{.ID'],
    ['a nested opening', 'https://shop.example/?id={{.ID{{.ItemID}}'],
    ['an empty placeholder', 'https://shop.example/?id={{}}'],
    ['a pipeline', 'https://shop.example/?id={{.ID | urlquery}}'],
    ['a function call', 'https://shop.example/?id={{urlquery .ID}}'],
    ['a field chain', 'https://shop.example/?id={{.ID.X}}'],
    ['a placeholder in a query key', 'https://shop.example/?{{.ItemType}}=1'],
    ['a placeholder as a bare query segment', 'https://shop.example/?{{.ID}}'],
    ['a key built from a placeholder', 'https://shop.example/?k{{.ID}}=1'],
    ['a placeholder in the host', 'https://{{.ItemType}}.shop.example/'],
    ['a placeholder in the fragment', 'https://shop.example/x#{{.ID}}'],
    ['a templated parameter named ts', 'https://shop.example/?ts={{.ID}}'],
    ['a static sig next to a placeholder', 'https://shop.example/{{.ID}}?sig=abc'],
    ['a templated key given twice', 'https://shop.example/?id={{.ID}}&id={{.ItemID}}'],
    ['a templated key also given statically', 'https://shop.example/?id=static&id={{.ID}}'],
    ['a templated parameter without a name', 'https://shop.example/?={{.ID}}'],
    ['invalid UTF-8 in a signed parameter', 'https://shop.example/?ref=%FF{{.ID}}'],
  ])('rejects %s as a template error', (_name, u) => {
    const r = validateTemplate(u);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/^failed to process URL template: /);
  });

  it.each([
    ['a relative URL', '/thanks'],
    ['another scheme', 'ftp://shop.example/x'],
    ['a script URL', 'javascript:alert(1)'],
    ['a URL without slashes after the scheme', 'https:shop.example/x'],
    ['a missing host', 'https:///x'],
    ['whitespace', 'https://shop.example/a b'],
    ['a backslash', 'https://shop.example\\@evil.example/'],
    ['a stray percent', 'https://shop.example/100%'],
    ['a percent whose digits would come from a value', 'https://shop.example/%{{.Amount}}'],
    ['an empty string', ''],
  ])('rejects %s', (_name, u) => expect(validateTemplate(u).ok).toBe(false));

  it('allows static repeated keys, static ts without placeholders and placeholders when templating is off', () => {
    expect(validateTemplate('https://shop.example/?tag=a&tag=b&id={{.ID}}').ok).toBe(true);
    expect(validateTemplate('https://shop.example/?ts=1').ok).toBe(true);
    expect(validateTemplate('https://shop.example/?id={{ID}}', { templating: false }).ok).toBe(true);
    expect(validateTemplate('/relative', { templating: false }).ok).toBe(false);
  });

  it('accepts exactly 2000 characters and rejects 2001 with a length message', () => {
    const base = 'https://shop.example/?id={{.ID}}&p=';
    const exact = base + 'a'.repeat(MAX_REDIRECT_URL_LENGTH - base.length);
    expect(exact).toHaveLength(2000);
    expect(validateTemplate(exact).ok).toBe(true);
    const r = validateTemplate(`${exact}a`);
    expect(!r.ok && r.message).toMatch(/2001 characters.*2000/);
  });
});

describe('renderRedirect', () => {
  it('passes the template through unchanged when templating is off', () => {
    const t = 'https://shop.example/{{.ID}}?q=a+b&x=%7e';
    expect(render(t, {}, { templating: false, secret: null })).toEqual({ ok: true, url: t, signed: false });
  });

  it('passes a template without placeholders through without ts and sig, secret or not', () => {
    const t = 'https://shop.example/thanks?utm_source=pay&q=a+b#top';
    expect(render(t)).toEqual({ ok: true, url: t, signed: false });
    expect(render(t, {}, { secret: null })).toEqual({ ok: true, url: t, signed: false });
  });

  it.each([null, undefined, ''])('refuses a template with placeholders when the secret is %p', (secret) => {
    const r = render('https://shop.example/?id={{.ID}}', {}, { secret });
    expect(r).toMatchObject({ ok: false, code: 'signing_secret_missing' });
  });

  it('fails with the template error for a bad placeholder even with a secret', () => {
    const r = render('https://shop.example/?id={{ID}}');
    expect(r).toMatchObject({ ok: false, code: 'invalid_template' });
    expect(!r.ok && r.message).toContain('failed to process URL template');
    expect(!r.ok && r.message).toContain('the dot is required');
  });

  it('substitutes every field, appends ts and sig last and keeps the template order', () => {
    const t =
      'https://shop.example/b/{{.ID}}?item={{.ItemID}}&ids={{.ItemIDs}}&utm=x&type={{.ItemType}}&ns={{.PluginNamespace}}&amt={{.Amount}}&cur={{.Currency}}&ref={{.ReferenceID}}';
    const u = url(render(t));
    const sig = sigOf(u);
    expect(u).toBe(
      `https://shop.example/b/${VALUES.ID}?item=${VALUES.ItemID}&ids=6f1c2d3e-0000-4000-8000-0000000000b1%2C6f1c2d3e-0000-4000-8000-0000000000b2` +
        `&utm=x&type=booking&ns=&amt=1250&cur=EUR&ref=order%2042&ts=${TS}&sig=${sig}`,
    );
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    const q = new URLSearchParams(u.split('?')[1]);
    expect([...q.keys()].slice(-2)).toEqual(['ts', 'sig']);
  });

  it('signs the decoded templated parameters and ts, not static ones or the path', () => {
    const u = url(render('https://shop.example/p/{{.ItemType}}?ref={{.ReferenceID}}&id=x-{{.ID}}&utm=static'));
    const expected = computeSignature(
      SECRET,
      [
        { key: 'ref', value: 'order 42' },
        { key: 'id', value: `x-${VALUES.ID}` },
      ],
      TS,
    );
    expect(sigOf(u)).toBe(expected);
  });

  it('signs only ts when the placeholders are all in the path', () => {
    const u = url(render('https://shop.example/done/{{.ID}}'));
    expect(u).toBe(`https://shop.example/done/${VALUES.ID}?ts=${TS}&sig=${computeSignature(SECRET, [], TS)}`);
  });

  it.each([
    ['a space', 'a b', 'a%20b'],
    ['a slash', 'a/b', 'a%2Fb'],
    ['a percent, encoded once', '100%', '100%25'],
    ['an already encoded sequence, not decoded first', 'a%20b', 'a%2520b'],
    ['a plus', 'a+b', 'a%2Bb'],
    ['query delimiters', 'a&b=c?d#e', 'a%26b%3Dc%3Fd%23e'],
    ['non-ASCII text', 'Rīga €', 'R%C4%ABga%20%E2%82%AC'],
    ['unreserved characters untouched', 'A-z_0.9~', 'A-z_0.9~'],
  ])('escapes a path value with %s', (_name, value, escaped) => {
    expect(url(render('https://shop.example/r/{{.ReferenceID}}/x', { ReferenceID: value }))).toBe(
      `https://shop.example/r/${escaped}/x?ts=${TS}&sig=${computeSignature(SECRET, [], TS)}`,
    );
  });

  it('escapes a query value with a space as %20, never +, and signs the decoded value', () => {
    const u = url(render('https://shop.example/?ref={{.ReferenceID}}', { ReferenceID: 'a b+c' }));
    expect(u.startsWith('https://shop.example/?ref=a%20b%2Bc&ts=')).toBe(true);
    expect(u).not.toMatch(/ref=[^&]*\+/);
    expect(sigOf(u)).toBe(computeSignature(SECRET, [{ key: 'ref', value: 'a b+c' }], TS));
  });

  it('keeps static text byte for byte, including its own encoding, and signs decoded static parts', () => {
    const t = 'https://Shop.Example:8443/a%20b/caf%C3%A9/{{.ID}}/?q=a+b&x=%7e&empty=&flag&ref=pre+fix%2F{{.ReferenceID}}#frag?x=1&y';
    const u = url(render(t, { ReferenceID: 'r' }));
    const sig = sigOf(u);
    expect(u).toBe(
      `https://Shop.Example:8443/a%20b/caf%C3%A9/${VALUES.ID}/?q=a+b&x=%7e&empty=&flag&ref=pre+fix%2Fr&ts=${TS}&sig=${sig}#frag?x=1&y`,
    );
    expect(sig).toBe(computeSignature(SECRET, [{ key: 'ref', value: 'pre fix/r' }], TS));
  });

  it('joins ts and sig cleanly after an empty query or a trailing separator', () => {
    expect(url(render('https://shop.example/{{.ID}}?'))).toMatch(/\?ts=\d+&sig=/);
    expect(url(render('https://shop.example/{{.ID}}?a=1&'))).toMatch(/\?a=1&ts=\d+&sig=/);
    expect(url(render('https://shop.example/{{.ID}}#f'))).toMatch(/\?ts=\d+&sig=[0-9a-f]{64}#f$/);
  });

  it('uses whole Unix seconds of now for ts', () => {
    expect(url(render('https://shop.example/{{.ID}}', {}, { now: 1_700_000_000_999 }))).toContain('ts=1700000000&');
  });

  it('accepts ItemIDs as a single string and an empty or missing optional value', () => {
    const u = url(render('https://shop.example/?ids={{.ItemIDs}}&ns={{.PluginNamespace}}', { ItemIDs: 'a,b', PluginNamespace: undefined }));
    expect(u).toContain('?ids=a%2Cb&ns=&ts=');
  });

  it('keeps the amount in the smallest unit', () => {
    expect(url(render('https://shop.example/?amt={{.Amount}}', { Amount: 199 }))).toContain('amt=199&');
  });

  it('gives different signatures for different values and secrets', () => {
    const t = 'https://shop.example/?id={{.ID}}';
    const a = sigOf(url(render(t)));
    expect(sigOf(url(render(t, { ID: 'other' })))).not.toBe(a);
    expect(sigOf(url(render(t, {}, { secret: 'z'.repeat(40) })))).not.toBe(a);
  });

  describe('final length', () => {
    // https://shop.example/ (21) + pad + ?id=x (5) + &ts=1700000000 (14) + &sig= (5) + 64 hex = 109 + pad
    const template = (pad: number) => `https://shop.example/${'a'.repeat(pad)}?id={{.ID}}`;

    it('accepts exactly 2000 characters', () => {
      const r = render(template(1891), { ID: 'x' });
      expect(url(r)).toHaveLength(2000);
    });

    it('rejects 2001 characters with a message about the length', () => {
      const r = render(template(1892), { ID: 'x' });
      expect(r).toMatchObject({ ok: false, code: 'url_too_long' });
      expect(!r.ok && r.message).toMatch(/2001 characters.*maximum length is 2000/);
    });

    it('counts the escaped form of the values', () => {
      expect(url(render(template(1890), { ID: 'x' }))).toHaveLength(1999);
      expect(render(template(1890), { ID: ' ' })).toMatchObject({ ok: false, code: 'url_too_long' }); // %20 is 3 characters
    });

    it('rejects an over-long template up front, and an over-long URL even when templating is off', () => {
      expect(render(`https://shop.example/${'a'.repeat(2000)}`)).toMatchObject({ ok: false, code: 'url_too_long' });
      expect(render(`https://shop.example/${'a'.repeat(2000)}`, {}, { templating: false })).toMatchObject({
        ok: false,
        code: 'url_too_long',
      });
    });
  });
});

describe('escapeValue and signedQueryKeys', () => {
  it('escapes a lone surrogate instead of throwing', () => {
    expect(escapeValue('\uD800')).toBe('%EF%BF%BD');
  });

  it('lists the decoded templated keys, nothing for static ones, null without placeholders', () => {
    expect(signedQueryKeys('https://shop.example/{{.ID}}?a=1&my+key={{.ItemID}}&b%5B%5D={{.Amount}}')).toEqual(['my key', 'b[]']);
    expect(signedQueryKeys('https://shop.example/{{.ID}}?a=1')).toEqual([]);
    expect(signedQueryKeys('https://shop.example/?a=1')).toBeNull();
    expect(signedQueryKeys('https://shop.example/?a={{.Nope}}')).toBeNull();
  });
});
