// The review table's state as it lives in the URL query (term_id, kind,
// q, sort, order, page, page_size), so a view can be shared and survives a
// reload; and the view of the rows it gives (search, sort, page).

export const kinds = ['onboarding', 'returning'] as const;
export type Kind = (typeof kinds)[number];
export const sortKeys = ['display_name', 'email', 'role', 'subteam', 'submitted_at'] as const;
export type SortKey = (typeof sortKeys)[number];
export const pageSizes = [10, 25, 50] as const;
export const defaultPageSize = 25;

export type ReviewState = {
  termId: string; // '' is the server's default (the hiring term)
  kind: Kind;
  q: string;
  sort: SortKey;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

export const defaults: ReviewState = { termId: '', kind: 'onboarding', q: '', sort: 'display_name', order: 'asc', page: 1, pageSize: defaultPageSize };

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function positive(v: string | null, fallback: number): number {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n >= 1 ? n : fallback;
}

function oneOf<T extends string>(list: readonly T[], v: string | null, fallback: T): T {
  return (list as readonly (string | null)[]).includes(v) ? (v as T) : fallback;
}

export function readState(search: string): ReviewState {
  const p = new URLSearchParams(search);
  const term = p.get('term_id') ?? '';
  const size = positive(p.get('page_size'), defaultPageSize);
  return {
    termId: uuid.test(term) ? term.toLowerCase() : '',
    kind: oneOf(kinds, p.get('kind'), 'onboarding'),
    q: (p.get('q') ?? '').trim().slice(0, 200),
    sort: oneOf(sortKeys, p.get('sort'), 'display_name'),
    order: p.get('order') === 'desc' ? 'desc' : 'asc',
    page: positive(p.get('page'), 1),
    pageSize: (pageSizes as readonly number[]).includes(size) ? size : defaultPageSize,
  };
}

// writeState is the query string of a state, defaults left out.
export function writeState(s: ReviewState): string {
  const p = new URLSearchParams();
  if (s.termId) p.set('term_id', s.termId);
  if (s.kind !== defaults.kind) p.set('kind', s.kind);
  if (s.q) p.set('q', s.q);
  if (s.sort !== defaults.sort) p.set('sort', s.sort);
  if (s.order !== defaults.order) p.set('order', s.order);
  if (s.page > 1) p.set('page', String(s.page));
  if (s.pageSize !== defaultPageSize) p.set('page_size', String(s.pageSize));
  const out = p.toString();
  return out ? `?${out}` : '';
}

// sortBy is the state after pressing a column's header: the same column
// flips the order, another starts ascending (newest first for dates).
export function sortBy(s: ReviewState, key: SortKey): ReviewState {
  if (s.sort === key) return { ...s, order: s.order === 'asc' ? 'desc' : 'asc', page: 1 };
  return { ...s, sort: key, order: key === 'submitted_at' ? 'desc' : 'asc', page: 1 };
}

export type Row = {
  display_name: string;
  email: string;
  role: string;
  subteam?: string | null;
  submitted_at: string;
};

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

// view is the rows the table shows: those matching q (name or email,
// ignoring case and accents), sorted, and the page of them; total counts
// the matches. A page past the end shows the last one.
export function view<R extends Row>(rows: readonly R[], s: ReviewState): { rows: R[]; total: number; page: number } {
  const q = fold(s.q);
  const matched = q ? rows.filter((r) => fold(r.display_name).includes(q) || fold(r.email).includes(q)) : [...rows];
  const dir = s.order === 'asc' ? 1 : -1;
  matched.sort((a, b) => {
    const c = s.sort === 'submitted_at' ? Date.parse(a.submitted_at) - Date.parse(b.submitted_at) : collator.compare(a[s.sort] ?? '', b[s.sort] ?? '');
    return c !== 0 ? c * dir : collator.compare(a.display_name, b.display_name);
  });
  const pages = Math.max(1, Math.ceil(matched.length / s.pageSize));
  const page = Math.min(s.page, pages);
  return { rows: matched.slice((page - 1) * s.pageSize, page * s.pageSize), total: matched.length, page };
}

function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

// filenameOf reads the download's name from Content-Disposition, or the
// fallback when there is none.
export function filenameOf(disposition: string | null, fallback: string): string {
  const m = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  const name = m?.[1] ? decodeURIComponent(m[1]) : '';
  return /^[\w.-]+$/.test(name) ? name : fallback;
}

// zipComplete says whether bytes end with a ZIP's end-of-central-directory
// record: the server ends an archive it could not finish without one.
export function zipComplete(bytes: Uint8Array): boolean {
  const min = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= min; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) return true;
  }
  return false;
}

// sizeParts is a byte count in the unit a reader expects (bytes, kB, MB),
// for Intl's unit formatting.
export function sizeParts(n: number): { value: number; unit: 'byte' | 'kilobyte' | 'megabyte' } {
  if (n < 1000) return { value: n, unit: 'byte' };
  if (n < 1_000_000) return { value: Math.round(n / 100) / 10, unit: 'kilobyte' };
  return { value: Math.round(n / 100_000) / 10, unit: 'megabyte' };
}
