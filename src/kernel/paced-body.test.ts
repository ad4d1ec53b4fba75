import { isPaced, pacedBody, PACED_BYTES_PER_TURN, PACED_FROM_BYTES, PACED_PIECE_BYTES } from './paced-body';

const MiB = 1024 * 1024;
const body = (bytes: number, seed: number) => Uint8Array.from({ length: bytes }, (_, i) => (i * 31 + seed) & 0xff);

/**
 * Reads `streams` at once, noting the turn of the event loop each piece arrived in (a ticker
 * that, like the pacing, runs once per turn in the check phase).
 */
async function readAll(streams: ReturnType<typeof pacedBody>[]) {
  let turn = 0;
  let done = false;
  const tick = () => {
    turn++;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  const perTurn = new Map<number, number>();
  const pieces: number[] = [];
  const bodies = await Promise.all(
    streams.map(
      (s) =>
        new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          s.on('data', (c: Buffer) => {
            chunks.push(c);
            pieces.push(c.length);
            perTurn.set(turn, (perTurn.get(turn) ?? 0) + c.length);
          });
          s.on('end', () => resolve(Buffer.concat(chunks)));
          s.on('error', reject);
        }),
    ),
  );
  done = true;
  return { bodies, pieces, perTurn };
}

describe('paced answers', () => {
  it('are those longer than PACED_FROM_BYTES', () => {
    expect(isPaced(PACED_FROM_BYTES)).toBe(false);
    expect(isPaced(PACED_FROM_BYTES + 1)).toBe(true);
    expect(isPaced(0)).toBe(false);
  });

  it('give their bytes whole and in order, in pieces of at most PACED_PIECE_BYTES', async () => {
    const b = body(3 * MiB + 12_345, 7);
    const { bodies, pieces } = await readAll([pacedBody(b)]);
    expect(Buffer.compare(bodies[0], Buffer.from(b))).toBe(0);
    expect(Math.max(...pieces)).toBe(PACED_PIECE_BYTES);
    expect(pieces.at(-1)).toBe((3 * MiB + 12_345) % PACED_PIECE_BYTES);
  });

  it('an empty body and one shorter than a piece end at once', async () => {
    const { bodies } = await readAll([pacedBody(new Uint8Array(0)), pacedBody(body(10, 1))]);
    expect(bodies[0].length).toBe(0);
    expect([...bodies[1]]).toEqual([...body(10, 1)]);
  });

  it('share PACED_BYTES_PER_TURN per turn of the event loop, however many are written', async () => {
    // more answers than a turn's bytes hold one piece of each
    const bodies = Array.from({ length: 12 }, (_, i) => body(MiB + 1 + i * 1000, i));
    const read = await readAll(bodies.map((b) => pacedBody(b)));
    read.bodies.forEach((got, i) => expect(Buffer.compare(got, Buffer.from(bodies[i]))).toBe(0));
    const total = bodies.reduce((n, b) => n + b.length, 0);
    // never more than a turn's bytes plus the piece that spent them in one turn
    expect(Math.max(...read.perTurn.values())).toBeLessThanOrEqual(PACED_BYTES_PER_TURN + PACED_PIECE_BYTES);
    // and the answers took as many turns as their bytes need
    expect(read.perTurn.size).toBeGreaterThanOrEqual(Math.ceil(total / (PACED_BYTES_PER_TURN + PACED_PIECE_BYTES)));
  });
});
