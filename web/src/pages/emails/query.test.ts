import { describe, expect, it } from 'vitest';
import { parseQuery, toSearch } from './query';

describe('email list query', () => {
  it('reads and writes the view', () => {
    const q = parseQuery('?to=a%40b.test&kind=confirm&page=3&page_size=10');
    expect(q).toEqual({ to: 'a@b.test', kind: 'confirm', page: 3, pageSize: 10 });
    expect(parseQuery(toSearch(q))).toEqual(q);
  });
  it('falls back to defaults and leaves them out', () => {
    const q = parseQuery('?page=0&page_size=999');
    expect(q).toEqual({ to: '', kind: '', page: 1, pageSize: 25 });
    expect(toSearch(q)).toBe('');
  });
});
