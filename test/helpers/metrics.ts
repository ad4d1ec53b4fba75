/**
 * The value of one sample in a Prometheus text answer of `/metrics`: `sample` is the metric's
 * name with its labels as written (`availability_kept_answers_total{outcome="kept"}`); NaN when
 * the answer has no such sample.
 */
export function metricIn(text: string, sample: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line ? Number(line.slice(sample.length + 1)) : NaN;
}
