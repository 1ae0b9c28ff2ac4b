import { describe, expect, it } from 'vitest';
import { ordered } from './sessions';

describe('ordered', () => {
  it('puts this device first, then the most recently used', () => {
    const s = [
      { id: 'a', current: false, last_seen_at: '2025-01-01T10:00:00Z' },
      { id: 'b', current: false, last_seen_at: '2025-01-03T10:00:00Z' },
      { id: 'c', current: true, last_seen_at: '2025-01-02T10:00:00Z' },
    ];
    expect(ordered(s).map((x) => x.id)).toEqual(['c', 'b', 'a']);
    expect(s.map((x) => x.id)).toEqual(['a', 'b', 'c']);
  });
});
