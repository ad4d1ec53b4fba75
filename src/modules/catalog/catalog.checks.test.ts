import { Check } from '../../shared/validate';
import type { ServiceSettings } from './catalog.entity';
import { mergeSettings } from './catalog.checks';

function merge(current: ServiceSettings, input: unknown, type: Parameters<typeof mergeSettings>[4] = 'flexible', prefix = '') {
  const c = new Check();
  const out = mergeSettings(c, prefix, current, input, type);
  return { out, paths: c.details.map((d) => d.path) };
}

describe('mergeSettings', () => {
  it('normalises durations and defaults the booking policy', () => {
    const { out, paths } = merge({}, { duration: 'PT90M', timeInterval: 'PT30M', availabilityPeriod: 'P2W', bufferBefore: 'PT0M' });
    expect(paths).toEqual([]);
    expect(out).toEqual({
      duration: 'PT1H30M',
      timeInterval: 'PT30M',
      availabilityPeriod: 'P14D',
      bufferBefore: 'PT0S',
      bookingPolicy: 'instant',
    });
  });

  it('changes only the keys present and clears with null', () => {
    const current: ServiceSettings = { duration: 'PT1H', currency: 'EUR', bookingPolicy: 'manual', tax: { inclusive: true, rate: 21 } };
    const { out } = merge(current, { currency: null, tax: { rate: 9 }, checkInTime: '08:30' });
    expect(out).toEqual({ duration: 'PT1H', bookingPolicy: 'manual', tax: { inclusive: true, rate: 9 }, checkInTime: '08:30' });
    expect(current.currency).toBe('EUR');
    expect(merge(current, { bookingPolicy: null, tax: null }).out).toEqual({ duration: 'PT1H', currency: 'EUR', bookingPolicy: 'instant' });
  });

  it('reports every malformed value under its path', () => {
    const { paths } = merge(
      {},
      {
        duration: 'PT',
        bufferAfter: 'soon',
        checkOutTime: '24:00',
        currency: 'eur',
        bookingPolicy: 'asap',
        tax: { inclusive: 'y', rate: 120 },
      },
      'flexible',
      'settings',
    );
    expect(paths.sort()).toEqual([
      'settings.bookingPolicy',
      'settings.bufferAfter',
      'settings.checkOutTime',
      'settings.currency',
      'settings.duration',
      'settings.tax.inclusive',
      'settings.tax.rate',
    ]);
  });

  it('requires a positive duration for fixed services, also after an update', () => {
    expect(merge({}, {}, 'fixed').paths).toEqual(['duration']);
    expect(merge({}, { duration: 'PT0S' }, 'fixed').paths).toEqual(['duration']);
    expect(merge({ duration: 'PT1H' }, { duration: null }, 'fixed').paths).toEqual(['duration']);
    expect(merge({ duration: 'PT1H' }, { currency: 'USD' }, 'fixed').paths).toEqual([]);
  });

  it('wants whole days for days services', () => {
    expect(merge({}, { duration: 'PT36H' }, 'days').paths).toEqual(['duration']);
    expect(merge({}, { duration: 'PT48H' }, 'days').out.duration).toBe('P2D');
    expect(merge({}, {}, 'days').paths).toEqual([]);
  });

  it('checks only shapes when the type itself is invalid', () => {
    expect(merge({}, {}, null).paths).toEqual([]);
    expect(merge({}, 'x', null, 'settings').paths).toEqual(['settings']);
  });
});
