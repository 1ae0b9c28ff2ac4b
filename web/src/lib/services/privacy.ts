// A person's own data and the club's accountability for it: the caller's
// export and the deletion of their account; the superadmins' staff access
// log, erasures and retention runs.
import { call, client } from './client';
import { download, type Downloaded } from './transfer';
import type { Page, Schemas } from './types';

export type AccessEntry = Schemas['AccessEntry'];
export type Erasure = Schemas['Erasure'];
export type AccessQuery = { actor: string; subject: string; page: number; pageSize: number };

export function accessParams(q: AccessQuery) {
  return { actor: q.actor.trim() || undefined, subject: q.subject.trim() || undefined, page: q.page, page_size: q.pageSize };
}

export const privacy = {
  // exportData downloads the caller's data as a ZIP; onProgress gets the
  // bytes received and the whole size. Kind "rateLimited" after 5 an hour.
  exportData: (onProgress: (received: number, total: number | null) => void): Promise<Downloaded> =>
    download('/api/me/export', 'hackdesk-data.zip', onProgress),
  // deleteAccount locks the account at once and answers when it will be
  // erased: kind "forbidden" for a wrong password, "conflict" (with the
  // server's reason) for an account that cannot be deleted.
  deleteAccount: async (password: string): Promise<string> =>
    (await call(client.DELETE('/api/me', { body: { password } }))).erase_at,
  accessLog: async (q: AccessQuery): Promise<Page<AccessEntry>> => {
    const r = await call(client.GET('/api/admin/access', { params: { query: accessParams(q) } }));
    return { items: r.items, total: r.total };
  },
};
