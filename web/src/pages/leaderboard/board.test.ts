import { describe, expect, it } from 'vitest';
import { leaderboard } from '$lib/i18n/leaderboard';
import { defaultView, nextSort, parseCap, parts, podium, rank, viewQuery as query, visible, type Entry } from './board';

const parseView = query.parse;
const viewQuery = query.format;

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const entry = (n: number, count: number, name: string | null = `Person ${n}`): Entry => ({
  reviewer_id: id(n),
  review_count: count,
  name,
  email: `p${n}@example.com`,
});

describe('rank', () => {
  it('gives equal counts the same rank and skips the next', () => {
    const r = rank([entry(1, 5), entry(2, 3), entry(3, 3), entry(4, 1)]);
    expect(r.map((e) => e.rank)).toEqual([1, 2, 2, 4]);
    expect(r.map((e) => e.tied)).toEqual([false, true, true, false]);
  });
  it('puts a three-way tie all first', () => {
    expect(rank([entry(1, 2), entry(2, 2), entry(3, 2)]).map((e) => e.rank)).toEqual([1, 1, 1]);
  });
  it('takes the first three for the podium', () => {
    expect(podium(rank([entry(1, 4), entry(2, 3), entry(3, 2), entry(4, 2)])).map((e) => e.reviewer_id)).toEqual([id(1), id(2), id(3)]);
    expect(podium(rank([entry(1, 4)]))).toHaveLength(1);
  });
});

describe('ordinal', () => {
  it('words ranks in English', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 103].map(leaderboard.ordinal)).toEqual([
      '1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '103rd',
    ]);
  });
});

describe('view state in the URL', () => {
  it('reads defaults from an empty query', () => {
    expect(parseView('')).toEqual(defaultView);
  });
  it('round-trips a view', () => {
    const v = { sort: 'email', order: 'desc', q: 'ana', reviewer: id(7) } as const;
    expect(viewQuery(v)).toBe(`?sort=email&order=desc&q=ana&reviewer=${id(7)}`);
    expect(parseView(viewQuery(v))).toEqual(v);
  });
  it('drops unknown values', () => {
    expect(parseView('?sort=drop&order=sideways&reviewer=nope')).toEqual(defaultView);
  });
  it('leaves the default view out of the address', () => {
    expect(viewQuery(defaultView)).toBe('');
  });
  it('flips the order on the same column, starts counts from the top', () => {
    expect(nextSort(defaultView, 'rank').order).toBe('desc');
    expect(nextSort(defaultView, 'reviews')).toMatchObject({ sort: 'reviews', order: 'desc' });
    expect(nextSort(defaultView, 'name')).toMatchObject({ sort: 'name', order: 'asc' });
  });
});

describe('visible', () => {
  const ranked = rank([entry(1, 5, 'Zoe'), entry(2, 3, 'ana'), entry(3, 3, null), entry(4, 1, 'Bo')]);
  it('filters by name or email', () => {
    expect(visible(ranked, { ...defaultView, q: 'AN' }).map((r) => r.name)).toEqual(['ana']);
    expect(visible(ranked, { ...defaultView, q: 'p3@' }).map((r) => r.reviewer_id)).toEqual([id(3)]);
  });
  it('sorts by name, ties in rank order', () => {
    expect(visible(ranked, { ...defaultView, sort: 'name', order: 'asc' }).map((r) => r.name)).toEqual([null, 'ana', 'Bo', 'Zoe']);
    expect(visible(ranked, { ...defaultView, sort: 'reviews', order: 'asc' }).map((r) => r.reviewer_id)).toEqual([id(4), id(2), id(3), id(1)]);
  });
});

describe('parts', () => {
  it('shows the whole board when nothing failed', () => {
    expect(parts({ leaderboard: [entry(1, 1)], failed: [] })).toEqual({ kind: 'board', ranking: 'ok', statistics: 'ok' });
  });
  it('tells an empty ranking from a failed one', () => {
    expect(parts({ leaderboard: [], failed: [] })).toEqual({ kind: 'board', ranking: 'empty', statistics: 'ok' });
    expect(parts({ leaderboard: [], failed: ['leaderboard'] })).toEqual({ kind: 'board', ranking: 'failed', statistics: 'ok' });
  });
  it('keeps the ranking when the statistics failed', () => {
    expect(parts({ leaderboard: [entry(1, 2)], failed: ['statistics'] })).toEqual({ kind: 'board', ranking: 'ok', statistics: 'failed' });
  });
  it('is a failure when both parts failed', () => {
    expect(parts({ leaderboard: [], failed: ['leaderboard', 'statistics'] })).toEqual({ kind: 'failed' });
  });
});

describe('parseCap', () => {
  it('reads empty as no cap and whole numbers of 1 or more', () => {
    expect(parseCap('')).toBeNull();
    expect(parseCap('  ')).toBeNull();
    expect(parseCap('2')).toBe(2);
    expect(parseCap(' 12 ')).toBe(12);
  });
  it('refuses zero, negatives, fractions and words', () => {
    for (const s of ['0', '-1', '1.5', 'two', '1e3']) expect(parseCap(s)).toBeUndefined();
  });
});
