import { describe, expect, it } from 'vitest';
import { defaults, listQuery } from './query';

const parseView = listQuery.parse;
const viewQuery = listQuery.format;

describe('the users view in the URL', () => {
  it('reads every part', () => {
    expect(parseView('?q=ada&role=admin&page=3&page_size=50')).toEqual({ q: 'ada', role: 'admin', page: 3, pageSize: 50 });
  });
  it('falls back on what it cannot use', () => {
    expect(parseView('?role=owner&page=-2&page_size=7')).toEqual(defaults);
    expect(parseView('?page=abc')).toEqual(defaults);
    expect(parseView('')).toEqual(defaults);
  });
  it('leaves the defaults out and round-trips', () => {
    expect(viewQuery(defaults)).toBe('');
    const v = { q: 'grace hopper', role: 'superadmin' as const, page: 2, pageSize: 50 };
    expect(parseView(viewQuery(v))).toEqual(v);
  });
});
