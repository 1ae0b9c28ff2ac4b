import { describe, expect, it } from 'vitest';
import { emailProblem, listQuery, matchable } from './state';

const readList = listQuery.parse;
const writeList = listQuery.format;

describe('receipt list state in the URL', () => {
  it('reads defaults and drops unknown values', () => {
    expect(readList('')).toEqual({ status: '', page: 1, pageSize: 25 });
    expect(readList('?status=lost&page=0&page_size=11')).toEqual({ status: '', page: 1, pageSize: 25 });
  });
  it('round-trips', () => {
    const s = { status: 'parked' as const, page: 4, pageSize: 50 };
    expect(writeList(s)).toBe('?status=parked&page=4&page_size=50');
    expect(readList(writeList(s))).toEqual(s);
    expect(writeList({ status: '', page: 1, pageSize: 25 })).toBe('');
  });
});

describe('matching rules', () => {
  it('matches only a parked receipt that was read', () => {
    expect(matchable({ status: 'parked', transaction_id: 'TX-1' })).toBe(true);
    expect(matchable({ status: 'parked', transaction_id: '' })).toBe(false);
    expect(matchable({ status: 'processed', transaction_id: 'TX-1' })).toBe(false);
  });
  it('checks the email as the server does', () => {
    expect(emailProblem('  ')).toBe('required');
    expect(emailProblem('lee')).toBe('format');
    expect(emailProblem(' lee@x.test ')).toBeNull();
  });
});
