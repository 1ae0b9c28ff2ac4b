// The table's state as the page's URL query (lib/utilities/tableQuery),
// the list endpoint's query, and the helpers of the details and decisions.
import { tableQuery, type TableState } from '$lib/utilities/tableQuery';

export const sorts = ['created_at', 'name', 'email', 'university', 'gender', 'reviews', 'score', 'normalized_score'] as const;
export type Sort = (typeof sorts)[number];
export const statuses = ['draft', 'submitted'] as const;
export type Status = (typeof statuses)[number];
export { pageSizes, type Order } from '$lib/utilities/tableQuery';

export type ListState = TableState<Sort, Status>;
export const { defaults, parse, format, sortBy } = tableQuery(sorts, statuses, 'created_at', 'desc');

// apiQuery is the state as the list endpoint's query parameters.
export function apiQuery(s: ListState) {
  return {
    q: s.q.trim() || undefined,
    status: s.status || undefined,
    sort: s.sort,
    order: s.order,
    page: s.page,
    page_size: s.pageSize,
  };
}

// detailsId is the application id of a /admin/applications/{id} path, or
// null for the table itself.
export function detailsId(pathname: string): string | null {
  const m = /^\/admin\/applications\/([^/]+)\/?$/.exec(pathname);
  return m ? decodeURIComponent(m[1] ?? '') : null;
}

// localDeadline turns a datetime-local value (the reader's zone) into
// RFC 3339, or null when it is not a date-time.
export function localDeadline(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

// newKey is a random idempotency key (a UUID).
export function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
