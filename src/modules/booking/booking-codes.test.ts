import { splitCodes } from './booking-codes.service';

describe('codes of a booking request', () => {
  it('splits at commas, trims, and drops blanks and repeats in any case', () => {
    expect(splitCodes('SUMMER10')).toEqual(['SUMMER10']);
    expect(splitCodes(' summer10 , ABCD-EFGH-JKMN ,, Summer10 ')).toEqual(['summer10', 'ABCD-EFGH-JKMN']);
    expect(splitCodes('')).toEqual([]);
    expect(splitCodes(null)).toEqual([]);
  });
});
