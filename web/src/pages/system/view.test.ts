import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, nextSort, runsQuery, shown } from './view';

const parseView = runsQuery.parse;
const toSearch = runsQuery.format;

describe('the runs view in the URL', () => {
  it('reads defaults from an empty or unknown query', () => {
    expect(parseView('')).toEqual(DEFAULT_VIEW);
    expect(parseView('?sort=run_id&order=up&kind=nope')).toEqual(DEFAULT_VIEW);
  });
  it('round-trips a view and leaves defaults out', () => {
    const v = { sort: 'kind', order: 'asc', kind: 'hiring' } as const;
    expect(toSearch(v)).toBe('?sort=kind&order=asc&kind=hiring');
    expect(parseView(toSearch(v))).toEqual(v);
    expect(toSearch(DEFAULT_VIEW)).toBe('');
  });
  it('flips the order of the same column and starts another', () => {
    expect(nextSort(DEFAULT_VIEW, 'closed_at')).toEqual({ ...DEFAULT_VIEW, order: 'asc' });
    expect(nextSort(DEFAULT_VIEW, 'kind')).toEqual({ ...DEFAULT_VIEW, sort: 'kind', order: 'asc' });
  });
});

describe('shown', () => {
  const runs = [
    { workflow_id: 'a', kind: 'term', status: 'failed', closed_at: '2026-01-01T10:00:00Z' },
    { workflow_id: 'b', kind: 'hiring', status: 'timed_out', closed_at: '2026-01-01T12:00:00Z' },
    { workflow_id: 'c', kind: 'hiring', status: 'failed', closed_at: '2026-01-01T11:00:00Z' },
  ];
  const ids = (v: typeof DEFAULT_VIEW) => shown(runs, v).map((r) => r.workflow_id);
  it('is newest first by default', () => expect(ids(DEFAULT_VIEW)).toEqual(['b', 'c', 'a']));
  it('filters by kind', () => expect(ids({ ...DEFAULT_VIEW, kind: 'hiring' })).toEqual(['b', 'c']));
  it('sorts by kind, newest first within one', () => expect(ids({ sort: 'kind', order: 'asc', kind: '' })).toEqual(['b', 'c', 'a']));
  it('sorts by status descending', () => expect(ids({ sort: 'status', order: 'desc', kind: '' })).toEqual(['b', 'c', 'a']));
});
