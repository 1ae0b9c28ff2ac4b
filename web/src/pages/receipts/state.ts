// The receipt list's view as it lives in the URL query (status, page,
// page_size), so a view can be shared and survives a reload, and the
// match form's rules.
import { param, urlQuery } from '$lib/utilities/urlQuery';

export const statuses = ['processed', 'parked', 'rejected', 'processing', 'received', 'duplicate'] as const;
export type ReceiptStatus = (typeof statuses)[number];

export function isStatus(s: string | null): s is ReceiptStatus {
  return (statuses as readonly (string | null)[]).includes(s);
}

export const listQuery = urlQuery({
  status: param.choice('status', statuses, ''),
  page: param.page(),
  pageSize: param.pageSize(),
});

// matchable mirrors the server's rule: only a parked receipt that was read
// (it has its transaction id) can be matched to an account by hand.
export function matchable(r: { status: string; transaction_id: string }): boolean {
  return r.status === 'parked' && r.transaction_id !== '';
}

// emailProblem checks the match form's email as the server does: trimmed,
// not empty, at most 254 characters, with an @.
export function emailProblem(email: string): 'required' | 'format' | null {
  const e = email.trim();
  if (e === '') return 'required';
  if ([...e].length > 254 || !e.includes('@')) return 'format';
  return null;
}
