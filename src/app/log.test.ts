import { Writable } from 'node:stream';
import pino from 'pino';
import pretty from 'pino-pretty';
import { logStream, prettyLogs, redactUrl } from './log';

describe('logged URLs', () => {
  it('hide access tokens in the query string', () => {
    expect(redactUrl('/v1/client/bookings/1?accessToken=abc.def&x=1')).toBe('/v1/client/bookings/1?accessToken=[redacted]&x=1');
    expect(redactUrl('/v1/x?a=1&token=zzz#f')).toBe('/v1/x?a=1&token=[redacted]#f');
    expect(redactUrl('/v1/companies?limit=5')).toBe('/v1/companies?limit=5');
  });
  it('hide calendar feed tokens and codes in the path, however the path is spelled', () => {
    expect(redactUrl('/v1/calendar/AbC-123_x.ics?pastDays=3')).toBe('/v1/calendar/[redacted]?pastDays=3');
    expect(redactUrl('/v1/calendar/AbC')).toBe('/v1/calendar/[redacted]');
    expect(redactUrl('/v1/%63alendar/AbC.ics')).toBe('/v1/calendar/[redacted]');
    expect(redactUrl('//v1//calendar/AbC')).toBe('//v1//calendar/[redacted]');
    expect(redactUrl('/v1/client/codes/GIFT-1%2F2/validate')).toBe('/v1/client/codes/[redacted]/validate');
    expect(redactUrl('/v1/client/codes/%C3%A9t%C3%A9/validate')).toBe('/v1/client/codes/[redacted]/validate');
    expect(redactUrl('/v1/client/codes/SUMMER/validate?x=1')).toBe('/v1/client/codes/[redacted]/validate?x=1');
    expect(redactUrl('/v1/%ZZ/calendar')).toBe('/v1/%ZZ/calendar');
    expect(redactUrl('/v1/companies/c1/calendar-feed')).toBe('/v1/companies/c1/calendar-feed');
  });
  it('hide the whole query of a payment return, and session ids and signatures anywhere', () => {
    expect(redactUrl('/v1/payments/stripe/return/tx1?outcome=success&session_id=cs_1')).toBe('/v1/payments/stripe/return/tx1?[redacted]');
    expect(redactUrl('/v1/payments/stripe/return/tx1')).toBe('/v1/payments/stripe/return/tx1');
    expect(redactUrl('/v1/x?session_id=cs_1&sig=abc&ts=1')).toBe('/v1/x?session_id=[redacted]&sig=[redacted]&ts=1');
    expect(redactUrl('/v1/payments/test-checkout/tx1')).toBe('/v1/payments/test-checkout/tx1');
  });
});

describe('log format', () => {
  it('is readable on a terminal or when asked for, JSON otherwise', () => {
    expect(prettyLogs('pretty', false)).toBe(true);
    expect(prettyLogs('auto', true)).toBe(true);
    expect(prettyLogs('auto', false)).toBe(false);
    expect(prettyLogs('json', true)).toBe(false);
    expect(logStream('json')).toBeUndefined();
  });

  it('pretty lines carry the level and message, not a JSON object', async () => {
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const stream = pretty({ colorize: false, singleLine: true, sync: true, destination });
    pino({ level: 'info' }, stream).info('server stopped');
    await new Promise((r) => setImmediate(r));
    expect(chunks.join('')).toMatch(/INFO.*server stopped/);
    expect(chunks.join('')).not.toMatch(/^\{/);
  });
});
