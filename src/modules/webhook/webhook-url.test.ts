import { checkWebhookUrl, isLoopback } from './webhook-url';

describe('checkWebhookUrl', () => {
  it('accepts https to any host and normalises', () => {
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
    expect(isLoopback('[::1]')).toBe(true);
    expect(isLoopback('127.0.0.1.nip.io')).toBe(false);
  });
});
