/** Answers counted by outcome: `200`, or `<status> <code>` for the contract's error bodies. */
export function tally(results: { status: number; body: { code?: string } }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    const k = r.status === 200 ? '200' : `${r.status} ${r.body.code}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
