// The shop's receipts (the exec's side): a page of them by status, and a
// parked receipt matched to an account by hand.
import { call, client } from './client';
import type { Page, Schemas } from './types';

export type Receipt = Schemas['Receipt'];
export type ListQuery = { status: string; page: number; pageSize: number };

export function listParams(s: ListQuery) {
  return { status: (s.status || undefined) as Receipt['status'] | undefined, page: s.page, page_size: s.pageSize };
}

export const receipts = {
  list: async (s: ListQuery): Promise<Page<Receipt>> => {
    const r = await call(client.GET('/api/admin/receipts', { params: { query: listParams(s) } }));
    return { items: r.items, total: r.total };
  },
  // match pays the account's membership with a parked receipt: kind
  // "invalid" with details.email, reason "accountNotFound", or kind
  // "conflict" when the receipt was handled meanwhile.
  match: (id: string, email: string) => call(client.POST('/api/admin/receipts/{id}/match', { params: { path: { id } }, body: { email } })),
};
