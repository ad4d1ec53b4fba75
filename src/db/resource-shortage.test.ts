import { ResourceShortage } from './resource-shortage';

describe('ResourceShortage', () => {
  it('is recent from a failure until the window has passed since the last one', () => {
    const s = new ResourceShortage(10_000);
    expect(s.recent(1_000)).toBeNull();
    s.record(1_000);
    expect(s.recent(1_000)).toBe(1_000);
    expect(s.recent(10_999)).toBe(1_000);
    expect(s.recent(11_000)).toBeNull();
    // another failure starts the window again
    s.record(9_000);
    expect(s.recent(18_999)).toBe(9_000);
    expect(s.recent(19_000)).toBeNull();
  });

  it('keeps the latest failure when an earlier time is recorded after it', () => {
    const s = new ResourceShortage(10_000);
    s.record(5_000);
    s.record(4_000);
    expect(s.recent(14_999)).toBe(5_000);
  });
});
