import { Readable } from 'node:stream';

/**
 * Answers longer than this are written piece by piece (`pacedBody`); shorter ones at once.
 * Copying an answer into a socket holds the event loop for as long as the kernel takes to copy
 * it, and while it is held no connection is accepted or read: a probe, a booking or a refusal
 * waits behind every large answer being written in that turn of the loop.
 */
export const PACED_FROM_BYTES = 1024 * 1024;
/** The largest piece of a paced answer handed to its socket at once. */
export const PACED_PIECE_BYTES = 256 * 1024;
/** Bytes of paced answers, all of them together, handed to sockets in one turn of the event loop. */
export const PACED_BYTES_PER_TURN = 1024 * 1024;

/** Whether an answer of `bytes` is written piece by piece. */
export const isPaced = (bytes: number): boolean => bytes > PACED_FROM_BYTES;

/** Pieces waiting for their turn, first come first served: each hands its piece on and says how many bytes. */
const waiting: (() => number)[] = [];
let scheduled = false;

/**
 * For /metrics: answers written piece by piece and their bytes, turns whose bytes were spent
 * while pieces still waited (the pacing holding answers back), and the pieces waiting now.
 */
export const pacedStats = { answers: 0, bytes: 0, fullTurns: 0, waiting: () => waiting.length };

function schedule(): void {
  if (scheduled || waiting.length === 0) return;
  scheduled = true;
  setImmediate(turn);
}

/** One turn: pieces are handed on until the turn's bytes are spent; the rest wait for the next turn. */
function turn(): void {
  scheduled = false;
  let budget = PACED_BYTES_PER_TURN;
  while (budget > 0 && waiting.length > 0) budget -= waiting.shift()!();
  if (waiting.length > 0) pacedStats.fullTurns++;
  schedule();
}

/**
 * The bytes of `body` as a stream of pieces of at most `piece` bytes. All paced answers share
 * PACED_BYTES_PER_TURN per turn of the event loop (a piece waits for the next turn once the
 * turn's bytes are spent), so a turn stays short however many large answers are being written,
 * and the connections waiting to be accepted or read are served between the pieces.
 */
export function pacedBody(body: Uint8Array, piece = PACED_PIECE_BYTES): Readable {
  pacedStats.answers++;
  pacedStats.bytes += body.length;
  let at = 0;
  const stream = new Readable({
    highWaterMark: piece,
    read() {
      if (at >= body.length) {
        stream.push(null);
        return;
      }
      waiting.push(() => {
        if (stream.destroyed) return 0;
        const part = body.subarray(at, at + piece);
        at += part.length;
        stream.push(part);
        return part.length;
      });
      schedule();
    },
  });
  return stream;
}
