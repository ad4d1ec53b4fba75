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
