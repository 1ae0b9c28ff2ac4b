import { describe, expect, it } from 'vitest';
import { listQuery } from './query';

describe('email list query', () => {
  it('reads and writes the view', () => {
    const q = listQuery.parse('?to=a%40b.test&kind=confirm&page=3&page_size=10');
    expect(q).toEqual({ to: 'a@b.test', kind: 'confirm', page: 3, pageSize: 10 });
    expect(listQuery.parse(listQuery.format(q))).toEqual(q);
  });
  it('falls back to defaults and leaves them out', () => {
    const q = listQuery.parse('?page=0&page_size=999');
    expect(q).toEqual({ to: '', kind: '', page: 1, pageSize: 25 });
    expect(listQuery.format(q)).toBe('');
  });
});
