import { EVERYTHING, type AvailabilityNote } from '../../kernel/live';
import { changeOf, mergeChanges, watchedOf } from './availability-live';

const S = 'service-1';
const R1 = 'resource-1';
const R2 = 'resource-2';
const RELATED = 'resource-9';
const H = 3_600_000;
const FROM = Date.parse('2031-05-01T00:00:00Z');
const TO = Date.parse('2031-05-08T00:00:00Z');
const at = (iso: string) => Date.parse(iso);
const note = (n: Partial<AvailabilityNote>): AvailabilityNote => ({
  table: 'booking_occupancy',
  serviceId: null,
  resourceId: null,
  from: null,
  until: null,
  ...n,
});

describe('availability changes', () => {
  const w = watchedOf(S, 'fixed', { duration: 'PT1H', bufferBefore: 'PT15M', bufferAfter: null }, [
    { resourceId: R1, related: [RELATED] },
    { resourceId: R2, related: { all: [], any: [RELATED] } },
  ]);

  it('widens an occupancy by the longest booking span (duration and buffers) and clips it to the window', () => {
    expect(w.spanMs).toBe(1.25 * H);
    const { change } = changeOf(
      w,
      [note({ resourceId: R1, from: at('2031-05-03T10:00:00Z'), until: at('2031-05-03T11:00:00Z') })],
      FROM,
      TO,
    );
    expect(change).toEqual({
      serviceID: S,
      resourceIDs: [R1],
      from: new Date('2031-05-03T08:45:00Z'),
      to: new Date('2031-05-03T12:15:00Z'),
    });
    const edge = changeOf(w, [note({ resourceId: R1, from: at('2031-04-30T23:30:00Z'), until: at('2031-05-01T00:30:00Z') })], FROM, TO);
    expect(edge.change).toMatchObject({ from: new Date(FROM), to: new Date('2031-05-01T01:45:00Z') });
  });

  it('ignores what is outside the window, another service or an unlinked resource', () => {
    const notes = [
      note({ resourceId: R1, from: at('2031-06-03T10:00:00Z'), until: at('2031-06-03T11:00:00Z') }),
      note({ table: 'price_rule', serviceId: 'service-2' }),
      note({ resourceId: 'resource-7', from: FROM, until: TO }),
    ];
    expect(changeOf(w, notes, FROM, TO)).toEqual({ change: null, relinked: false });
  });

  it('reaches the linked resources of a related resource, and merges several changes into one', () => {
    const { change } = changeOf(
      w,
      [
        note({ resourceId: RELATED, from: at('2031-05-02T10:00:00Z'), until: at('2031-05-02T11:00:00Z') }),
        note({ resourceId: R1, from: at('2031-05-04T10:00:00Z'), until: at('2031-05-04T11:00:00Z') }),
      ],
      FROM,
      TO,
    );
    expect(change).toEqual({
      serviceID: S,
      resourceIDs: [R1, R2],
      from: new Date('2031-05-02T08:45:00Z'),
      to: new Date('2031-05-04T12:15:00Z'),
    });
  });

  it('a rule of the service or of a resource without dates is the whole window; a link or the service asks to read them again', () => {
    expect(changeOf(w, [note({ table: 'working_hours_rule', resourceId: R2 })], FROM, TO).change).toEqual({
      serviceID: S,
      resourceIDs: [R2],
      from: new Date(FROM),
      to: new Date(TO),
    });
    expect(changeOf(w, [note({ table: 'price_rule', serviceId: S })], FROM, TO)).toEqual({
      change: { serviceID: S, resourceIDs: [R1, R2], from: new Date(FROM), to: new Date(TO) },
      relinked: false,
    });
    const linked = changeOf(w, [note({ table: 'service_resource_link', serviceId: S, resourceId: 'resource-3' })], FROM, TO);
    expect(linked).toEqual({
      change: { serviceID: S, resourceIDs: ['resource-3'], from: new Date(FROM), to: new Date(TO) },
      relinked: true,
    });
    expect(changeOf(w, EVERYTHING, FROM, TO)).toEqual({
      change: { serviceID: S, resourceIDs: [R1, R2], from: new Date(FROM), to: new Date(TO) },
      relinked: true,
    });
  });

  it('a slot occurrence whose spots changed is its start, widened; stays reach the whole window', () => {
    const usage = changeOf(
      w,
      [note({ table: 'slot_usage', serviceId: S, resourceId: R2, from: at('2031-05-05T09:00:00Z'), until: at('2031-05-05T09:00:00Z') })],
      FROM,
      TO,
    );
    expect(usage.change).toMatchObject({ resourceIDs: [R2], from: new Date('2031-05-05T07:45:00Z'), to: new Date('2031-05-05T10:15:00Z') });
    const stays = watchedOf(S, 'days', { duration: 'P1D' }, [{ resourceId: R1, related: null }]);
    expect(stays.spanMs).toBeNull();
    expect(
      changeOf(stays, [note({ resourceId: R1, from: at('2031-05-03T14:00:00Z'), until: at('2031-05-04T11:00:00Z') })], FROM, TO).change,
    ).toMatchObject({
      from: new Date(FROM),
      to: new Date(TO),
    });
    expect(watchedOf(S, 'flexible', { duration: 'PT30M' }, []).spanMs).toBe(24 * H);
  });

  it('merges changes not yet sent', () => {
    const a = { serviceID: S, resourceIDs: [R2], from: new Date('2031-05-02T00:00:00Z'), to: new Date('2031-05-03T00:00:00Z') };
    const b = { serviceID: S, resourceIDs: [R1, R2], from: new Date('2031-05-01T00:00:00Z'), to: new Date('2031-05-02T12:00:00Z') };
    expect(mergeChanges(a, b)).toEqual({ serviceID: S, resourceIDs: [R1, R2], from: b.from, to: a.to });
  });
});
