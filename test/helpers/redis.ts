import { connect } from 'node:net';

/**
 * The Redis of the integration tests: TEST_REDIS_URL, else 127.0.0.1:6379. Answers the URL when
 * it answers PING within a second, else null (the Redis tests then skip and say why).
 */
export async function probeRedis(): Promise<string | null> {
  const url = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname || '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok ? url : null);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG') || d.toString().startsWith('-NOAUTH')));
  });
}

/** `describe` when the tests' Redis answered in the global setup, else `describe.skip` with the reason printed. */
export function describeWithRedis(name: string, fn: (redisUrl: string) => void): void {
  const url = process.env.BOOKING_TEST_REDIS_URL;
  if (!url) {
    console.warn(`skipped "${name}": no Redis answers at ${process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'} (set TEST_REDIS_URL)`);
    describe.skip(name, () => fn(''));
    return;
  }
  describe(name, () => fn(url));
}
