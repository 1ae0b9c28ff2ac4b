// The table's state as the page's URL query: what is in the query is the
// view (shareable, survives reload); defaults are left out of the URL.

export const sorts = ['created_at', 'name', 'email', 'university', 'gender', 'reviews', 'score', 'normalized_score'] as const;
export type Sort = (typeof sorts)[number];
export type Order = 'asc' | 'desc';
export const statuses = ['draft', 'submitted'] as const;
export type Status = (typeof statuses)[number];
export const pageSizes = [10, 25, 50] as const;

export type ListState = {
  q: string;
  status: Status | '';
  sort: Sort;
  order: Order;
  page: number;
  pageSize: number;
};

export const defaults: ListState = { q: '', status: '', sort: 'created_at', order: 'desc', page: 1, pageSize: 25 };

const maxQ = 100;

function oneOf<T extends string>(v: string | null, set: readonly T[], def: T): T {
  return v !== null && (set as readonly string[]).includes(v) ? (v as T) : def;
}

// parse reads a URL query (location.search); anything unknown or out of
// range falls back to its default.
export function parse(search: string): ListState {
  const p = new URLSearchParams(search);
  const page = Number(p.get('page'));
  const size = Number(p.get('page_size'));
  return {
    q: (p.get('q') ?? '').slice(0, maxQ),
    status: oneOf<Status | ''>(p.get('status'), statuses, ''),
    sort: oneOf(p.get('sort'), sorts, defaults.sort),
    order: oneOf<Order>(p.get('order'), ['asc', 'desc'], defaults.order),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (pageSizes as readonly number[]).includes(size) ? size : defaults.pageSize,
  };
}

// format writes the state as a URL query ("" or "?..."), defaults left out.
export function format(s: ListState): string {
  const p = new URLSearchParams();
  if (s.q.trim()) p.set('q', s.q.trim());
  if (s.status) p.set('status', s.status);
  if (s.sort !== defaults.sort) p.set('sort', s.sort);
  if (s.order !== defaults.order) p.set('order', s.order);
  if (s.page !== 1) p.set('page', String(s.page));
  if (s.pageSize !== defaults.pageSize) p.set('page_size', String(s.pageSize));
  const out = p.toString();
  return out ? `?${out}` : '';
}

// sortBy is the state after pressing a column's header: the same column
// turns its order round; another starts ascending, on the first page.
export function sortBy(s: ListState, key: Sort): ListState {
  if (s.sort === key) return { ...s, order: s.order === 'asc' ? 'desc' : 'asc', page: 1 };
  return { ...s, sort: key, order: 'asc', page: 1 };
}

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
