import { withoutSmtpSecrets } from './delivery';

describe('withoutSmtpSecrets', () => {
  const url = 'smtp://mailer%40shop:s3cret%2Fpw@mail.example.com:587';
  const b64 = (v: string) => Buffer.from(v).toString('base64');

  it('removes the user name and password, plain and as AUTH PLAIN and LOGIN send them', () => {
    const answers = [
      'Invalid login: 535 5.7.8 authentication failed for mailer@shop with s3cret/pw',
      `Invalid login: 535 5.7.8 bad credentials ${b64('\0mailer@shop\0s3cret/pw')}`,
      `Invalid login: 535 5.7.8 ${b64('mailer@shop')} ${b64('s3cret/pw')}`,
    ];
    for (const a of answers) {
      const out = withoutSmtpSecrets(a, url);
      expect(out).toContain('Invalid login: 535 5.7.8');
      expect(out).not.toMatch(/mailer@shop|s3cret/);
      expect(out).not.toContain(b64('s3cret/pw'));
      expect(out).not.toContain(b64('\0mailer@shop\0s3cret/pw'));
    }
  });

  it('leaves the text alone without credentials', () => {
    expect(withoutSmtpSecrets('connect ECONNREFUSED 127.0.0.1:25', 'smtp://127.0.0.1:25')).toBe('connect ECONNREFUSED 127.0.0.1:25');
    expect(withoutSmtpSecrets('anything', null)).toBe('anything');
  });
});
