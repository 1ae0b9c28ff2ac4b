import { describe, expect, it } from 'vitest';
import { memoryStore, readCopy, removeCopy, writeCopy } from './localCopy';

describe('a form’s copy in the browser', () => {
  it('reads back what was written, for the same profile only', () => {
    const s = memoryStore();
    const copy = { profileId: 'me', page: 2 };
    writeCopy(s, 'k', copy);
    expect(readCopy(s, 'k', 'me')).toEqual({ profileId: 'me', page: 2 });
    expect(readCopy(s, 'k', 'someone else')).toBeNull();
    removeCopy(s, 'k');
    expect(readCopy(s, 'k', 'me')).toBeNull();
  });
  it('reads nothing from a broken copy or no storage, and never throws', () => {
    const s = memoryStore();
    s.data.set('k', '{not json');
    expect(readCopy(s, 'k', 'me')).toBeNull();
    s.data.set('k', '[1,2]');
    expect(readCopy(s, 'k', 'me')).toBeNull();
    expect(readCopy(null, 'k', 'me')).toBeNull();
    const full = { ...memoryStore(), setItem: () => { throw new Error('quota'); } };
    expect(() => writeCopy(full, 'k', { profileId: 'me' })).not.toThrow();
  });
});
