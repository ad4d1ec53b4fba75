import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

// Query parameters that carry a capability (a booking's access token); never logged.
const SECRET_PARAMS = /([?&](?:accessToken|access_token|token|refreshToken)=)[^&#]*/gi;

/** The request URL as logged: capabilities in the query string are replaced. */
export const redactUrl = (url: string): string => url.replace(SECRET_PARAMS, '$1[redacted]');

/** Whether log lines are for people: `LOG_FORMAT=pretty`, or `auto` with a terminal on stdout. */
export function prettyLogs(format: 'json' | 'pretty' | 'auto', isTTY = !!process.stdout.isTTY): boolean {
  return format === 'pretty' || (format === 'auto' && isTTY);
}

/** The destination of log lines: stdout as JSON, or readable lines through pino-pretty. */
export function logStream(format: 'json' | 'pretty' | 'auto'): NodeJS.WritableStream | undefined {
  if (!prettyLogs(format)) return undefined;
  return pretty({
    colorize: !!process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
  });
}

/** The process logger (the HTTP server's own logger writes to the same destination). */
export function createLogger(config: { logLevel: string; logFormat: 'json' | 'pretty' | 'auto' }): Logger {
  const stream = logStream(config.logFormat);
  return stream ? pino({ level: config.logLevel }, stream) : pino({ level: config.logLevel });
}
