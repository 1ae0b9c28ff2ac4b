// The receipt list's state as it lives in the URL query (status, page,
// page_size), so a view can be shared and survives a reload.

export const statuses = ['processed', 'parked', 'rejected', 'processing', 'received', 'duplicate'] as const;
export type ReceiptStatus = (typeof statuses)[number];
export const pageSizes = [10, 25, 50] as const;
export const defaultPageSize = 25;
export type ListState = { status: ReceiptStatus | ''; page: number; pageSize: number };

function positive(v: string | null, fallback: number): number {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n >= 1 ? n : fallback;
}

export function isStatus(s: string | null): s is ReceiptStatus {
  return (statuses as readonly (string | null)[]).includes(s);
}

// readList reads the state from a query string; anything unknown falls
// back to the default.
export function readList(search: string): ListState {
  const p = new URLSearchParams(search);
  const status = p.get('status');
  const size = positive(p.get('page_size'), defaultPageSize);
  return {
    status: isStatus(status) ? status : '',
    page: positive(p.get('page'), 1),
    pageSize: (pageSizes as readonly number[]).includes(size) ? size : defaultPageSize,
  };
}

// writeList is the query string of a state, defaults left out.
export function writeList(s: ListState): string {
  const p = new URLSearchParams();
  if (s.status) p.set('status', s.status);
  if (s.page > 1) p.set('page', String(s.page));
  if (s.pageSize !== defaultPageSize) p.set('page_size', String(s.pageSize));
  const out = p.toString();
  return out ? `?${out}` : '';
}

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
