// Accounts as others see them: the superadmin's list of every account
// (found by name or email and role) with the role and exec role change,
// and the lookup of a teammate by email on the application form.
import { call, client } from './client';
import type { Page, Schemas } from './types';

export type AdminUser = Schemas['AdminUser'];
export type UserPatch = Schemas['AdminUserPatch'];
export type ListQuery = { q: string; role: string; page: number; pageSize: number };

export function listParams(s: ListQuery) {
  return { q: s.q.trim() || undefined, role: (s.role || undefined) as AdminUser['role'] | undefined, page: s.page, page_size: s.pageSize };
}

export const users = {
  list: async (s: ListQuery): Promise<Page<AdminUser>> => {
    const r = await call(client.GET('/api/admin/users', { params: { query: listParams(s) } }));
    return { items: r.items, total: r.total };
  },
  // update changes a role or exec role: kind "conflict" for the last
  // superadmin, reason "termNotFound", kind "notFound" for a gone
  // account, "invalid" with details by field (role, exec.position,
  // exec.subteam, exec.term_id).
  update: (id: string, body: UserPatch): Promise<AdminUser> => call(client.PATCH('/api/admin/users/{id}', { params: { path: { id } }, body })),
  // byEmail lists the accounts (at most 8) with a word of the name or of
  // the email's local part starting with q, or whose email is q (a
  // teammate); kind "rateLimited" past the day's quota of accounts listed.
  byEmail: async (q: string, limit = 8) => (await call(client.GET('/api/users/emails', { params: { query: { q, limit } } }))).emails,
};

