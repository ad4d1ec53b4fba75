import { redactUrl } from './log';

describe('logged URLs', () => {
  it('hide access tokens in the query string', () => {
    expect(redactUrl('/v1/client/bookings/1?accessToken=abc.def&x=1')).toBe('/v1/client/bookings/1?accessToken=[redacted]&x=1');
    expect(redactUrl('/v1/x?a=1&token=zzz#f')).toBe('/v1/x?a=1&token=[redacted]#f');
    expect(redactUrl('/v1/companies?limit=5')).toBe('/v1/companies?limit=5');
  });
});
