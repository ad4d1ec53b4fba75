import { computeAvailability } from './availability';
import { at, request, resource, rule, service, snapshot, starts } from './testkit';

const MONDAY = request('2026-03-01T22:00:00Z', '2026-03-02T22:00:00Z');
const busy = (from: string, to: string) => ({ start: at(`2026-03-02T${from}:00Z`), end: at(`2026-03-02T${to}:00Z`) });

describe('related resources', () => {
  const a1 = resource('a1', {
    occupied: [busy('08:00', '09:00')],
    closingPeriods: [{ start: at('2026-03-02T07:00:00Z'), end: at('2026-03-02T15:00:00Z'), serviceIDs: ['another'] }],
  });
  const y1 = resource('y1', { occupied: [busy('10:00', '15:00')] });
  // y2 works 09:00-15:00 local (07:00-13:00Z)
  const y2 = resource('y2', { occupied: [busy('11:00', '12:00')], workingHours: [rule({ hours: '09:00-15:00' })] });
  const r1 = resource('r1', { related: { all: ['a1'], any: ['y1', 'y2'] } });
  const snap = snapshot({ resources: [r1], relatedResources: [a1, y1, y2] });

  it('needs every `all` resource and one `any` resource free and open', () => {
    // 08 a1 busy; 11 both y busy; 13 and 14: y1 busy, y2 closed
    expect(starts(computeAvailability(snap, MONDAY))).toEqual(['07', '09', '10', '12'].map((h) => `2026-03-02T${h}:00:00Z`));
  });

  it('checks related resources for the buffered interval', () => {
    const buffered = { ...snap, service: service({ bufferAfterSec: 30 * 60 }) };
    // 07:00 + 1 h + 30 min reaches a1's 08:00 booking; 10:00 + 1.5 h reaches y2's 11:00 booking
    expect(starts(computeAvailability(buffered, MONDAY))).toEqual(['09', '12'].map((h) => `2026-03-02T${h}:00:00Z`));
  });

  it('respects closing periods of related resources', () => {
    const closed = resource('a1', {
      closingPeriods: [{ start: at('2026-03-02T09:30:00Z'), end: at('2026-03-02T10:00:00Z'), serviceIDs: [] }],
    });
    const result = computeAvailability({ ...snap, relatedResources: [closed, y1, y2] }, MONDAY);
    expect(starts(result)).toEqual(['07', '08', '10', '12'].map((h) => `2026-03-02T${h}:00:00Z`));
  });

  it('finds related resources among the computed resources too', () => {
    const both = { ...snap, resources: [r1, a1], relatedResources: [y1, y2] };
    const result = computeAvailability(both, MONDAY);
    expect(starts(result)).toEqual(['07', '09', '10', '12'].map((h) => `2026-03-02T${h}:00:00Z`));
    expect(starts(result, 'a1')).toEqual(['07', '09', '10', '11', '12', '13', '14'].map((h) => `2026-03-02T${h}:00:00Z`));
  });

  it('offers nothing when a required resource is unknown', () => {
    expect(computeAvailability({ ...snap, relatedResources: [y1, y2] }, MONDAY).times.r1).toEqual([]);
    const anyUnknown = resource('r1', { related: { all: [], any: ['nope'] } });
    expect(computeAvailability({ ...snap, resources: [anyUnknown] }, MONDAY).times.r1).toEqual([]);
  });

  it('ignores a resource listed as related to itself and an empty requirement', () => {
    const self = resource('r1', { related: { all: ['r1'], any: [] } });
    expect(starts(computeAvailability({ ...snap, resources: [self] }, MONDAY))).toHaveLength(8);
  });

  it('applies to group slots and stays as well', () => {
    const group = snapshot({
      service: service({ type: 'group' }),
      resources: [resource('r1', { workingHours: [], related: { all: ['a1'], any: [] } })],
      relatedResources: [a1],
      slots: [8, 9].map((h) => ({
        resourceID: 'r1',
        start: at(`2026-03-02T0${h}:00:00Z`),
        durationSec: 3600,
        bookedSpots: 0,
        bookedSpotsPerTicket: {},
      })),
      capacityRules: [{ id: 'c', type: 'group', priority: 0, createdAt: 0, spots: 5, spotsPerTicket: {}, matches: null }],
    });
    expect(starts(computeAvailability(group, MONDAY))).toEqual(['2026-03-02T09:00:00Z']);

    const stays = snapshot({
      service: service({ type: 'days' }),
      resources: [resource('r1', { workingHours: [rule({ hours: '00:00-24:00' })], related: { all: [], any: ['b1'] } })],
      // b1 is closed on Tuesdays
      relatedResources: [resource('b1', { workingHours: [rule({ hours: '00:00-24:00', mask: 127 - 32 })] })],
    });
    expect(starts(computeAvailability(stays, request('2026-03-01T22:00:00Z', '2026-03-04T22:00:00Z')))).toEqual([
      '2026-03-02T12:00:00Z',
      '2026-03-04T12:00:00Z',
    ]);
  });
});
