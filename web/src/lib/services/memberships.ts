// Memberships: the caller's own for the active term (join, status, the
// payment QR) and the exec's side (the member search, a member's
// membership opened from their QR code, recording a payment).
import { call, client } from './client';
import type { Page, Schemas } from './types';

export type MembershipStatus = Schemas['MembershipStatus'];
export type MembershipItem = Schemas['MembershipListItem'];
export type MembershipDetail = Schemas['MembershipDetail'];
export type PaymentMethod = 'cash' | 'etransfer' | 'card';

// ListQuery is the member search: a name or email, a status, a page.
export type ListQuery = { q: string; status: '' | 'paid' | 'unpaid'; page: number; pageSize: number };

// listParams is the member search as the list endpoint's query: an empty
// search or status is left out.
export function listParams(s: ListQuery) {
  return { q: s.q.trim() || undefined, status: s.status || undefined, page: s.page, page_size: s.pageSize };
}

export const memberships = {
  // mine is the caller's membership of the active term, the term and its
  // dues (term null: there is no active term).
  mine: () => call(client.GET('/api/membership')),
  join: () => call(client.POST('/api/membership')),
  // qrUrl is the address of the caller's payment QR code (an image);
  // version makes a retry load it again.
  qrUrl: (version = 0): string => (version ? `/api/membership/qr?v=${version}` : '/api/membership/qr'),
  // list is a page of the active term's memberships; kind "notFound"
  // when there is no active term.
  list: async (s: ListQuery): Promise<Page<MembershipItem>> => {
    const r = await call(client.GET('/api/admin/memberships', { params: { query: listParams(s) } }));
    return { items: r.items, total: r.total };
  },
  // detail is the membership a member's signed QR link opens: kind
  // "forbidden" for a bad signature, "notFound" for no such membership.
  detail: (id: string, sig: string): Promise<MembershipDetail> =>
    call(client.GET('/api/admin/memberships/{id}', { params: { path: { id }, query: { sig } } })),
  // pay records a payment: kind "conflict" when it is paid already,
  // "invalid" with details.method or details.amount_cents.
  pay: (id: string, sig: string, method: PaymentMethod, cents: number): Promise<MembershipDetail> =>
    call(client.POST('/api/admin/memberships/{id}/payments', { params: { path: { id }, query: { sig } }, body: { method, amount_cents: cents } })),
};
