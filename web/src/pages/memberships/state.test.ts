import { describe, expect, it } from 'vitest';
import { detailId, dollars, listQuery, parseAmount } from './state';

const readList = listQuery.parse;
const writeList = listQuery.format;

describe('list state in the URL', () => {
  it('reads defaults from an empty query', () => {
    expect(readList('')).toEqual({ q: '', status: '', page: 1, pageSize: 25 });
  });
  it('reads every field and ignores nonsense', () => {
    expect(readList('?q=ada&status=paid&page=3&page_size=50')).toEqual({ q: 'ada', status: 'paid', page: 3, pageSize: 50 });
    expect(readList('?status=gone&page=-2&page_size=7')).toEqual({ q: '', status: '', page: 1, pageSize: 25 });
    expect(readList('?page=1.5').page).toBe(1);
  });
  it('writes only what differs from the defaults, and round-trips', () => {
    expect(writeList({ q: '', status: '', page: 1, pageSize: 25 })).toBe('');
    const s = { q: 'grace hopper', status: 'unpaid' as const, page: 2, pageSize: 10 };
    expect(readList(writeList(s))).toEqual(s);
  });
});

describe('parseAmount', () => {
  it('turns dollars into cents', () => {
    expect(parseAmount('20', 2000)).toEqual({ ok: true, cents: 2000 });
    expect(parseAmount(' $20.5 ', 2000)).toEqual({ ok: true, cents: 2050 });
    expect(parseAmount('1,000.05', null)).toEqual({ ok: true, cents: 100005 });
    expect(parseAmount('.5', null)).toEqual({ ok: true, cents: 50 });
  });
  it('names the problem', () => {
    expect(parseAmount('', 2000)).toEqual({ ok: false, problem: 'required' });
    expect(parseAmount('twenty', 2000)).toEqual({ ok: false, problem: 'format' });
    expect(parseAmount('20.001', 2000)).toEqual({ ok: false, problem: 'format' });
    expect(parseAmount('-20', 2000)).toEqual({ ok: false, problem: 'format' });
    expect(parseAmount('19.99', 2000)).toEqual({ ok: false, problem: 'low' });
    expect(parseAmount('0', null)).toEqual({ ok: false, problem: 'low' });
    expect(parseAmount('100000.01', null)).toEqual({ ok: false, problem: 'high' });
  });
  it('shows cents as dollars', () => {
    expect(dollars(2000)).toBe('20.00');
    expect(dollars(2050)).toBe('20.50');
  });
});

describe('detailId', () => {
  it('finds the id of a detail path', () => {
    expect(detailId('/admin/memberships')).toBeNull();
    expect(detailId('/admin/memberships/')).toBeNull();
    expect(detailId('/admin/memberships/abc-1')).toBe('abc-1');
  });
});
