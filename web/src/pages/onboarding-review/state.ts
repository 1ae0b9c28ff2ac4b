// The review table's view as it lives in the URL query (term_id, kind,
// q, sort, order, page, page_size), so a view can be shared and survives a
// reload; and the view of the rows it gives (search, sort, page).
import { param, sortBy as sortView, urlQuery } from '$lib/utilities/urlQuery';

export const kinds = ['onboarding', 'returning'] as const;
export type Kind = (typeof kinds)[number];
export const sortKeys = ['display_name', 'email', 'role', 'subteam', 'submitted_at'] as const;
export type SortKey = (typeof sortKeys)[number];

export const reviewQuery = urlQuery({
  termId: param.uuid('term_id'), // '' is the server's default (the hiring term)
  kind: param.choice('kind', kinds, 'onboarding'),
  q: param.text('q', { trim: true }),
  sort: param.choice('sort', sortKeys, 'display_name'),
  order: param.order('asc'),
  page: param.page(),
  pageSize: param.pageSize(),
});
export type ReviewState = ReturnType<typeof reviewQuery.parse>;
export const defaults = reviewQuery.defaults;

// sortBy is the state after pressing a column's header: the same column
// flips the order, another starts ascending (newest first for dates).
export function sortBy(s: ReviewState, key: SortKey): ReviewState {
  return sortView(s, key, (k) => (k === 'submitted_at' ? 'desc' : 'asc'));
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

// sizeParts is a byte count in the unit a reader expects (bytes, kB, MB),
// for Intl's unit formatting.
export function sizeParts(n: number): { value: number; unit: 'byte' | 'kilobyte' | 'megabyte' } {
  if (n < 1000) return { value: n, unit: 'byte' };
  if (n < 1_000_000) return { value: Math.round(n / 100) / 10, unit: 'kilobyte' };
  return { value: Math.round(n / 100_000) / 10, unit: 'megabyte' };
}
