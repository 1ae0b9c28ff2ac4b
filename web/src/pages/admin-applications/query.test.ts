import { describe, expect, it } from 'vitest';
import { sortBy } from '$lib/utilities/urlQuery';
import { defaults, detailsId, listQuery, localDeadline } from './query';

const { parse, format } = listQuery;

describe('URL state', () => {
  it('reads the defaults from an empty query', () => {
    expect(parse('')).toEqual(defaults);
    expect(format(defaults)).toBe('');
  });
  it('round-trips every value', () => {
    const s = { q: 'ana', status: 'submitted' as const, sort: 'normalized_score' as const, order: 'asc' as const, page: 3, pageSize: 10 };
    expect(format(s)).toBe('?q=ana&status=submitted&sort=normalized_score&order=asc&page=3&page_size=10');
    expect(parse(format(s))).toEqual(s);
  });
  it('falls back on unknown values', () => {
    expect(parse('?sort=password&order=up&status=x&page=-2&page_size=1000')).toEqual(defaults);
    expect(parse('?page=2.5&page_size=7').page).toBe(1);
    expect(parse(`?q=${'a'.repeat(150)}`).q).toHaveLength(100);
  });
  it('sorts a new column ascending and turns the same one round, from page 1', () => {
    const s = { ...defaults, page: 4 };
    expect(sortBy(s, 'name')).toMatchObject({ sort: 'name', order: 'asc', page: 1 });
    expect(sortBy(sortBy(s, 'name'), 'name')).toMatchObject({ sort: 'name', order: 'desc' });
    expect(sortBy(s, 'created_at')).toMatchObject({ sort: 'created_at', order: 'asc' });
  });
});

describe('paths and values', () => {
  it('finds the details id', () => {
    expect(detailsId('/admin/applications')).toBeNull();
    expect(detailsId('/admin/applications/')).toBeNull();
    expect(detailsId('/admin/applications/abc-1')).toBe('abc-1');
    expect(detailsId('/admin/applications/abc/x')).toBeNull();
  });
  it('turns a local date-time into RFC 3339', () => {
    const iso = localDeadline('2030-05-01T09:30');
    expect(iso).toBe(new Date(2030, 4, 1, 9, 30).toISOString());
    expect(localDeadline('')).toBeNull();
    expect(localDeadline('tomorrow')).toBeNull();
  });
});
