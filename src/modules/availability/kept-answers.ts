import { KeptDocuments } from '../../kernel/kept-documents';
import type { ParsedQuery } from './availability.compute';
import { horizonSecOf, type SnapshotRow } from './snapshot';

/**
 * Times answers (their JSON bytes) a process keeps, for a request asked again while nothing it
 * reads changed: the same document, identified by the versions it was cut from
 * (kept-availability.ts), and the same request give the same bytes, so the engine and the
 * writer need not run again. An answer is kept only when it does not depend on the moment it was
 * made: no start of the window is already past (unless past times are asked for) and the
 * service's booking horizon reaches beyond the window; the engine reads `now` for those two
 * bounds alone (`engine/plan.ts`). Bounded in count and bytes, the least recently used first.
 */

const MAX_ANSWERS = 256;
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const MAX_ONE_ANSWER_BYTES = 16 * 1024 * 1024;

interface KeptAnswer {
  bytes: Uint8Array;
  size: number;
}

const answers = new KeptDocuments<KeptAnswer>(MAX_ANSWERS, MAX_ANSWER_BYTES, MAX_ONE_ANSWER_BYTES);

/** For /metrics: answers sent as kept, and what is kept now. */
export const keptAnswerStats = { hits: 0, held: () => answers.held, evicted: () => answers.evicted };

/** Everything an answer is made from besides the document: the company's zone, the view, the request. */
export function answerKey(
  where: { companyId: string; zone: string; serviceId: string; clientView: boolean },
  q: ParsedQuery,
  versions: string,
): string {
  return JSON.stringify([
    where.companyId,
    where.zone,
    where.serviceId,
    where.clientView,
    q.from,
    q.to,
    q.resourceIds,
    q.durationSec,
    q.spots,
    q.tickets,
    q.includePast,
    versions,
  ]);
}

/** Whether the answer to `q` from `row` is the same whatever the time of asking, from `now` on. */
export function timeless(row: SnapshotRow, q: ParsedQuery, now: number): boolean {
  if (!q.includePast && q.from < now) return false;
  const horizon = horizonSecOf(row);
  return horizon === null || now + horizon * 1000 >= q.to;
}

/**
 * The answer kept under `key`, else `make()`'s, kept; `make()` alone without a key (a document
 * read fresh, or an answer not worth keeping) or when the answer now depends on the moment (an
 * answer kept earlier is then not the one the engine would give now).
 */
export async function keptAnswerOr(
  key: string | null,
  row: SnapshotRow,
  q: ParsedQuery,
  now: number,
  make: () => Promise<Uint8Array>,
): Promise<Uint8Array> {
  if (key === null || !timeless(row, q, now)) return make();
  const kept = answers.get(key);
  if (kept) {
    keptAnswerStats.hits++;
    return kept.bytes;
  }
  const bytes = await make();
  answers.keep(key, { bytes, size: bytes.byteLength });
  return bytes;
}
