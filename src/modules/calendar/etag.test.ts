import { matchesEtag } from './calendar.routes';

describe('matchesEtag', () => {
  it('matches the tag, a weak form of it, a list holding it, and *', () => {
    expect(matchesEtag('"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('W/"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesEtag(['"x"', '"abc"'], '"abc"')).toBe(true);
    expect(matchesEtag('*', '"abc"')).toBe(true);
  });
  it('does not match anything else', () => {
    expect(matchesEtag(undefined, '"abc"')).toBe(false);
    expect(matchesEtag('', '"abc"')).toBe(false);
    expect(matchesEtag('"abcd"', '"abc"')).toBe(false);
    expect(matchesEtag('abc', '"abc"')).toBe(false);
  });
});
