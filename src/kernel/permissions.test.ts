import { couldHaveGranted, escalations, grants, isPermission, patternCovers } from './permissions';

const C1 = '11111111-1111-4111-8111-111111111111';
const C2 = '22222222-2222-4222-8222-222222222222';

describe('permissions', () => {
  it('recognises permissions and wildcards', () => {
    expect(isPermission('*')).toBe(true);
    expect(isPermission('bookings.*')).toBe(true);
    expect(isPermission('bookings.write')).toBe(true);
    expect(isPermission('client.create')).toBe(true);
    expect(isPermission('bookings.delete')).toBe(false);
    expect(isPermission('nothing.read')).toBe(false);
    expect(isPermission('bookings.read.x')).toBe(false);
    expect(isPermission('audit.read')).toBe(true);
    expect(isPermission('audit.*')).toBe(true);
    expect(isPermission('audit.write')).toBe(false);
  });
  it('matches patterns', () => {
    expect(patternCovers('*', 'bookings.write')).toBe(true);
    expect(patternCovers('bookings.*', 'bookings.write')).toBe(true);
    expect(patternCovers('bookings.*', 'bookings.*')).toBe(true);
    expect(patternCovers('bookings.read', 'bookings.*')).toBe(false);
    expect(patternCovers('bookings.*', 'clients.read')).toBe(false);
  });
  it('grants per company and under *', () => {
    const p = { '*': ['services.read'], [C1]: ['bookings.*'] };
    expect(grants(p, C1, 'bookings.write')).toBe(true);
    expect(grants(p, C2, 'bookings.write')).toBe(false);
    expect(grants(p, C2, 'services.read')).toBe(true);
    expect(grants(p, '*', 'bookings.read')).toBe(false);
  });
  it('finds escalations', () => {
    const creator = { [C1]: ['bookings.*', 'apikeys.write'] };
    expect(escalations(creator, { [C1]: ['bookings.read'] })).toEqual([]);
    expect(escalations(creator, { [C1]: ['*'] })).toEqual([`${C1}: *`]);
    expect(escalations(creator, { '*': ['bookings.read'] })).toEqual(['*: bookings.read']);
    expect(escalations(creator, { [C2]: ['bookings.read'] })).toEqual([`${C2}: bookings.read`]);
    expect(escalations({ '*': ['*'] }, { [C2]: ['*'], '*': ['clients.read'] })).toEqual([]);
  });
  it('tells which keys a key could have granted', () => {
    const scoped = { [C1]: ['bookings.*', 'apikeys.write'] };
    expect(couldHaveGranted(scoped, { [C1]: ['bookings.read'] })).toBe(true);
    expect(couldHaveGranted(scoped, { [C1]: ['bookings.read', 'payments.read'] })).toBe(false);
    expect(couldHaveGranted(scoped, { [C2]: ['bookings.read'] })).toBe(false);
    expect(couldHaveGranted(scoped, { [C2]: [] })).toBe(false);
    expect(couldHaveGranted(scoped, { '*': ['bookings.read'] })).toBe(false);
    expect(couldHaveGranted({ [C1]: ['bookings.*'], [C2]: ['bookings.*', 'apikeys.write'] }, { [C1]: ['bookings.read'] })).toBe(false);
    expect(couldHaveGranted({ '*': ['*'] }, { '*': ['*'], [C2]: ['client.login'] })).toBe(true);
    expect(couldHaveGranted({ '*': ['apikeys.write', 'client.*'] }, { [C1]: ['client.login'] })).toBe(true);
  });
});
