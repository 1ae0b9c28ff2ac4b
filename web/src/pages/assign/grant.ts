// The edit form's rules: what the form starts from for an account, the
// checks the server also makes (a VP needs a subteam, an exec role needs
// a term, a subteam is 1 to 100 characters) and the PATCH body that
// carries only what changed.
import { schemaAdminUserExec } from '$lib/rules.gen';
import type { AdminUser, UserPatch } from '$lib/services/users';
import type { Role } from './query';

export type User = AdminUser;
export type Position = 'President' | 'VP' | 'Exec';
export type Form = { role: Role; exec: Position | 'none'; subteam: string; termId: string };
export type Patch = UserPatch;
export type Problems = Partial<Record<'role' | 'exec' | 'subteam' | 'termId', string>>;

type Term = { id: string; active: boolean };

// defaultTerm is the term an exec role is given for: the term of the
// account's exec role, else the hiring term (the one that starts last:
// the list's first), else the active one.
export function defaultTerm(user: User, terms: readonly Term[]): string {
  const current = user.exec_role?.term_id;
  if (current && terms.some((t) => t.id === current)) return current;
  return terms[0]?.id ?? terms.find((t) => t.active)?.id ?? '';
}

export function initialForm(user: User, terms: readonly Term[]): Form {
  return {
    role: user.role,
    exec: user.exec_role?.position ?? 'none',
    subteam: user.exec_role?.subteam ?? '',
    termId: defaultTerm(user, terms),
  };
}

export type Words = { subteamRequired: string; subteamTooLong: (max: number) => string; termRequired: string };

export function checkForm(f: Form, words: Words): Problems {
  const out: Problems = {};
  if (f.exec === 'none') return out;
  const subteam = f.subteam.trim();
  const max = schemaAdminUserExec.subteam.maxLength;
  if (f.exec === 'VP' && subteam === '') out.subteam = words.subteamRequired;
  else if ([...subteam].length > max) out.subteam = words.subteamTooLong(max);
  if (!f.termId) out.termId = words.termRequired;
  return out;
}

// patchFor is the body for the change from user to f, or null when
// nothing changes.
export function patchFor(user: User, f: Form): Patch | null {
  const body: Patch = {};
  if (f.role !== user.role) body.role = f.role;
  const cur = user.exec_role;
  if (f.exec === 'none') {
    if (cur) body.exec = null;
  } else {
    const subteam = f.subteam.trim() || null;
    if (!cur || cur.position !== f.exec || (cur.subteam ?? null) !== subteam || cur.term_id !== f.termId) {
      body.exec = { position: f.exec, subteam, term_id: f.termId };
    }
  }
  return Object.keys(body).length > 0 ? body : null;
}

// demotesSelf says whether saving f takes the superadmin role from the
// person saving it (who would lose the page).
export function demotesSelf(user: User, f: Form, me: string | undefined): boolean {
  return !!me && user.id === me && user.role === 'superadmin' && f.role !== 'superadmin';
}
