import { timesAnswerJson } from './availability.compute';
import { computeAvailabilityColumns } from './engine';
import { HOUR_MS, loadedOf, prng, randomCase } from './random-cases';

/**
 * Kept answers (kept-answers.ts) rest on the engine reading the time of asking for two bounds
 * only: the past cut off (unless past times are asked for) and the booking horizon. When neither
 * bites, the answer must be the same bytes whenever it is asked.
 */
describe('the time of asking', () => {
  it.each(Array.from({ length: 120 }, (_, i) => i + 1))(
    'random case #%i: the same answer at any time before the window while the horizon reaches past it',
    (seed) => {
      const { snap, req } = randomCase(seed);
      const r = prng(seed * 31 + 7);
      const horizon = r.pick([null, 400 * 24 * 3600]);
      const early = req.from - r.int(0, 2000) * HOUR_MS;
      const late = req.from - r.int(0, 3) * HOUR_MS;
      const answerAt = (now: number, includePast: boolean) => {
        const s = { ...snap, now, service: { ...snap.service, availabilityPeriodSec: horizon } };
        return timesAnswerJson(loadedOf(s), computeAvailabilityColumns(s, { ...req, includePast }), s.zone).toString();
      };
      expect(answerAt(late, false)).toBe(answerAt(early, false));
      // asking for past times too, even a time after the window answers the same
      expect(answerAt(req.to + r.int(0, 48) * HOUR_MS, true)).toBe(answerAt(early, true));
    },
  );
});
