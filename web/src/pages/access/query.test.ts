import { describe, expect, it } from 'vitest';
import { accessQuery } from './query';

describe('accessQuery', () => {
  it('reads the filters as ids and drops anything else', () => {
    const id = '0b7c6c2e-3f39-4f59-9d57-6a1f2b3c4d5e';
    expect(accessQuery.parse(`?subject=${id.toUpperCase()}&actor=nope`)).toEqual({ actor: '', subject: id, page: 1, pageSize: 25 });
  });
  it('leaves the defaults out of the URL', () => {
    expect(accessQuery.format({ actor: '', subject: '', page: 1, pageSize: 25 })).toBe('');
  });
});
