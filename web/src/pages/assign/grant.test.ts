import { describe, expect, it } from 'vitest';
import { checkForm, defaultTerm, demotesSelf, initialForm, patchFor, type User } from './grant';

const words = { subteamRequired: 'need subteam', subteamTooLong: (n: number) => `max ${n}`, termRequired: 'need term' };
const ada: User = { id: 'u1', email: 'ada@x.test', display_name: 'Ada', role: 'member', email_confirmed: true, exec_role: null };
const terms = [
  { id: 'spring', active: false },
  { id: 'fall', active: true },
];

describe('the grant form', () => {
  it('defaults the term to the exec role’s, else the hiring term', () => {
    expect(defaultTerm(ada, terms)).toBe('spring');
    expect(defaultTerm({ ...ada, exec_role: { position: 'Exec', subteam: null, term_id: 'fall' } }, terms)).toBe('fall');
    expect(defaultTerm(ada, [])).toBe('');
  });
  it('asks a VP for a subteam and an exec role for a term', () => {
    const f = { ...initialForm(ada, []), exec: 'VP' as const };
    expect(checkForm(f, words)).toEqual({ subteam: 'need subteam', termId: 'need term' });
    expect(checkForm({ ...f, subteam: 'x'.repeat(101), termId: 't' }, words)).toEqual({ subteam: 'max 100' });
    expect(checkForm({ ...f, exec: 'none' }, words)).toEqual({});
  });
  it('sends only what changed', () => {
    const f = initialForm(ada, terms);
    expect(patchFor(ada, f)).toBeNull();
    expect(patchFor(ada, { ...f, role: 'admin', exec: 'VP', subteam: ' Design ' })).toEqual({
      role: 'admin',
      exec: { position: 'VP', subteam: 'Design', term_id: 'spring' },
    });
    const vp: User = { ...ada, exec_role: { position: 'VP', subteam: 'Design', term_id: 'spring' } };
    expect(patchFor(vp, initialForm(vp, terms))).toBeNull();
    expect(patchFor(vp, { ...initialForm(vp, terms), exec: 'none' })).toEqual({ exec: null });
  });
  it('knows a superadmin demoting themselves', () => {
    const me: User = { ...ada, role: 'superadmin' };
    expect(demotesSelf(me, { ...initialForm(me, terms), role: 'admin' }, 'u1')).toBe(true);
    expect(demotesSelf(me, { ...initialForm(me, terms), role: 'admin' }, 'u2')).toBe(false);
    expect(demotesSelf(me, initialForm(me, terms), 'u1')).toBe(false);
  });
});
