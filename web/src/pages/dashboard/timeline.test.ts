import { describe, expect, it } from 'vitest';
import { breakdownRows, bucketLabel, intervalQuery, peak, placesLeft, series, spanOf, tickLabel, ticks } from './timeline';

const parseInterval = (search: string) => intervalQuery.parse(search).interval;

const norm = (s: string) => s.replace(/\s+/g, ' ');

describe('interval in the URL', () => {
  it('reads 1 as hours and anything else as days', () => {
    expect(parseInterval('?interval=1')).toBe(1);
    expect(parseInterval('?interval=24')).toBe(24);
    expect(parseInterval('')).toBe(24);
    expect(parseInterval('?interval=2')).toBe(24);
    expect(parseInterval('?interval=01')).toBe(24);
  });
  it('writes the interval chosen, days too', () => {
    expect(intervalQuery.format({ hackathon: '', interval: 1 })).toBe('?interval=1');
    expect(intervalQuery.format({ hackathon: '', interval: 24 })).toBe('?interval=24');
  });
  it('names an edition other than the current one', () => {
    const id = '0b6f1c5e-8a55-4f0b-9b7d-2a3c4d5e6f70';
    expect(intervalQuery.format({ hackathon: id, interval: 24 })).toBe(`?hackathon=${id}&interval=24`);
    expect(intervalQuery.parse(`?hackathon=${id}`)).toEqual({ hackathon: id, interval: 24 });
  });
});

describe('places left', () => {
  it('is the capacity less attending and open offers, or none without one', () => {
    expect(placesLeft({ limit: 10, attending: 3, open_offers: 4 })).toBe(3);
    expect(placesLeft({ limit: 5, attending: 3, open_offers: 4 })).toBe(-2);
    expect(placesLeft({ limit: null, attending: 3, open_offers: 4 })).toBeNull();
  });
});

describe('bucket labels in the reader’s zone', () => {
  it('shows a UTC hour as its span in the zone', () => {
    expect(norm(bucketLabel('2025-03-01T21:00:00Z', 1, 'en-US', 'America/St_Johns'))).toBe('Sat, Mar 1, 5:30 – 6:30 PM');
    expect(norm(bucketLabel('2025-03-01T21:00:00Z', 1, 'en-US', 'UTC'))).toBe('Sat, Mar 1, 9:00 – 10:00 PM');
  });
  it('shows a UTC day as the span it covers, across local dates', () => {
    expect(norm(bucketLabel('2025-03-01T00:00:00Z', 24, 'en-US', 'America/St_Johns'))).toBe(
      'Fri, Feb 28, 8:30 PM – Sat, Mar 1, 8:30 PM',
    );
  });
  it('is empty for a bad time', () => {
    expect(bucketLabel('nope', 1)).toBe('');
  });
  it('labels ticks with the time for hours and the date for days', () => {
    const s = Date.parse('2025-03-02T01:00:00Z') / 1000;
    expect(norm(tickLabel(s, 1, 'en-US', 'America/St_Johns'))).toBe('Mar 1, 9:30 PM');
    expect(norm(tickLabel(s, 24, 'en-US', 'UTC'))).toBe('Mar 2');
  });
});

describe('chart data', () => {
  it('turns buckets into seconds and counts, skipping bad times', () => {
    expect(
      series([
        { bucket: '2025-03-01T00:00:00Z', count: 3 },
        { bucket: 'x', count: 9 },
        { bucket: '2025-03-02T00:00:00Z', count: 0 },
      ]),
    ).toEqual([
      [1740787200, 1740873600],
      [3, 0],
    ]);
  });
  it('thins ticks evenly, keeping the first', () => {
    expect(ticks([1, 2, 3, 4, 5], 10)).toEqual([1, 2, 3, 4, 5]);
    expect(ticks([1, 2, 3, 4, 5], 2)).toEqual([1, 4]);
    expect(ticks([1, 2, 3, 4, 5], 0)).toEqual([1]);
    expect(ticks([], 3)).toEqual([]);
  });
  it('says the span from the first bucket\'s start to the last one\'s end', () => {
    const b = [
      { bucket: '2025-03-01T00:00:00Z', count: 2 },
      { bucket: '2025-03-03T00:00:00Z', count: 1 },
    ];
    expect(spanOf(b, 24, 'en-US', 'UTC')).toEqual({ from: 'Sat, Mar 1, 12:00 AM', to: 'Tue, Mar 4, 12:00 AM' });
    expect(spanOf(b.slice(0, 1), 1, 'en-US', 'UTC')).toEqual({ from: 'Sat, Mar 1, 12:00 AM', to: 'Sat, Mar 1, 1:00 AM' });
    expect(spanOf([], 24)).toBeNull();
  });
  it('finds the first busiest bucket', () => {
    expect(
      peak([
        { bucket: 'a', count: 1 },
        { bucket: 'b', count: 2 },
        { bucket: 'c', count: 2 },
      ]),
    ).toEqual({ bucket: 'b', count: 2 });
    expect(peak([])).toBeUndefined();
  });
});

describe('breakdown', () => {
  it('orders statuses by the life cycle with shares of the total', () => {
    const rows = breakdownRows({ draft: 2, submitted: 1, offer: 1, waitlist: 0, reject: 0, attending: 4, declined: 0, expired: 0 });
    expect(rows.map((r) => r.status)).toEqual(['draft', 'submitted', 'offer', 'waitlist', 'reject', 'attending', 'declined', 'expired']);
    expect(rows[0]).toEqual({ status: 'draft', count: 2, share: 0.25 });
    expect(rows[5]?.share).toBe(0.5);
  });
  it('has zero shares when there is nothing', () => {
    const rows = breakdownRows({ draft: 0, submitted: 0, offer: 0, waitlist: 0, reject: 0, attending: 0, declined: 0, expired: 0 });
    expect(rows.every((r) => r.share === 0)).toBe(true);
  });
});
