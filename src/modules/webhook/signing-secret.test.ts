import { Webhook } from 'standardwebhooks';
import { isSigningSecret, newSigningSecret } from './signing-secret';

describe('signing secrets', () => {
  it('are whsec_ and base64 of 24-32 bytes, each one new', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const s = newSigningSecret();
      expect(isSigningSecret(s)).toBe(true);
      const n = Buffer.from(s.slice(6), 'base64').length;
      expect(n).toBeGreaterThanOrEqual(24);
      expect(n).toBeLessThanOrEqual(32);
      seen.add(s);
    }
    expect(seen.size).toBe(200);
  });
  it('are accepted by the Standard Webhooks library, which signs and verifies with them', () => {
    const s = newSigningSecret();
    const wh = new Webhook(s);
    const at = new Date();
    const sig = wh.sign('msg_1', at, '{"a":1}');
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': sig };
    expect(wh.verify('{"a":1}', headers)).toEqual({ a: 1 });
    expect(() => new Webhook(newSigningSecret()).verify('{"a":1}', headers)).toThrow();
  });
  it('tells malformed secrets', () => {
    expect(isSigningSecret('whsec_')).toBe(false);
    expect(isSigningSecret(`whsec_${Buffer.alloc(16).toString('base64')}`)).toBe(false);
    expect(isSigningSecret(`whsec_${Buffer.alloc(40).toString('base64')}`)).toBe(false);
    expect(isSigningSecret(`wh_${Buffer.alloc(24).toString('base64')}`)).toBe(false);
  });
});
