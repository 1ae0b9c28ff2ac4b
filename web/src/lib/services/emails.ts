// The audit trail of every email the service sent (superadmin), a page
// at a time, by recipient and kind.
import { call, client } from './client';
import type { Page, Schemas } from './types';

export type Email = Schemas['Email'];
export type ListQuery = { to: string; kind: string; page: number; pageSize: number };

export function listParams(s: ListQuery) {
  return { to: s.to.trim() || undefined, kind: s.kind.trim() || undefined, page: s.page, page_size: s.pageSize };
}

export const emails = {
  list: async (s: ListQuery): Promise<Page<Email>> => {
    const r = await call(client.GET('/api/admin/emails', { params: { query: listParams(s) } }));
    return { items: r.emails, total: r.total };
  },
};
