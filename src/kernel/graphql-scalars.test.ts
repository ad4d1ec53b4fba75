import { DateTimeScalar } from './graphql-scalars';
import { formatTimestamp } from '../shared/time';

/** A DateTime given as text answers what the instant it names renders as, whichever way serialize takes. */
describe('DateTime serialize', () => {
  const slow = (text: string) => formatTimestamp(Date.parse(text));

  it('answers the rendering of the instant for canonical and other texts', () => {
    const texts = [
      '2026-12-01T07:00:00Z',
      '2026-12-01T07:00:00.000Z',
      '2026-12-01T07:00:00.120Z',
      '2026-02-28T23:59:59.999Z',
      '2026-02-29T00:00:00Z',
      '2026-04-31T10:00:00Z',
      '2026-12-31T10:00:00Z',
      '0000-01-01T00:00:00Z',
      '1969-12-31T23:59:59.500Z',
      '2026-12-01T09:00:00+02:00',
    ];
    for (const text of texts) expect([text, DateTimeScalar.serialize(text)]).toEqual([text, slow(text)]);
  });

  it('agrees with the rendering on random instants written canonically', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 5000; i++) {
      const ms = Math.floor((next() - 0.1) * 4e12);
      const text = formatTimestamp(ms)!;
      expect(DateTimeScalar.serialize(text)).toBe(text);
      expect(DateTimeScalar.serialize(new Date(ms))).toBe(text);
    }
  });
});
