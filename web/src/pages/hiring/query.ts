// The applicants table's state as the page's URL query (shareable, kept
// on reload; defaults left out), and the rows it shows: one per selection,
// searched, filtered, sorted and cut into pages in the browser (the board
// endpoint answers the whole term at once).
import { body_updateHiringSelection } from '$lib/rules.gen';
import type { Schemas } from '$lib/services/api';

export type Status = (typeof body_updateHiringSelection.status.enum)[number];
// statuses in review order, as the server lists them.
export const statuses: readonly Status[] = body_updateHiringSelection.status.enum;
export const sorts = ['name', 'position', 'status', 'updated'] as const;
export type Sort = (typeof sorts)[number];
export type Order = 'asc' | 'desc';
export const pageSizes = [10, 25, 50] as const;

export type BoardState = {
  q: string;
  status: Status | '';
  sort: Sort;
  order: Order;
  page: number;
  pageSize: number;
};

export const defaults: BoardState = { q: '', status: '', sort: 'name', order: 'asc', page: 1, pageSize: 25 };

const maxQ = 100;

function oneOf<T extends string>(v: string | null, set: readonly T[], def: T): T {
  return v !== null && (set as readonly string[]).includes(v) ? (v as T) : def;
}

// parse reads a URL query; anything unknown or out of range is its default.
export function parse(search: string): BoardState {
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
export function format(s: BoardState): string {
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
export function sortBy(s: BoardState, key: Sort): BoardState {
  if (s.sort === key) return { ...s, order: s.order === 'asc' ? 'desc' : 'asc', page: 1 };
  return { ...s, sort: key, order: 'asc', page: 1 };
}

type Applicant = Schemas['HiringApplicant'];
export type Row = {
  applicant: Applicant;
  name: string; // the display name, or the email without one
  selection: Applicant['selections'][number];
};

// rowsOf flattens the board into one row per selection.
export function rowsOf(applicants: readonly Applicant[]): Row[] {
  return applicants.flatMap((a) => a.selections.map((selection) => ({ applicant: a, name: a.display_name || a.email, selection })));
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

function compare(a: Row, b: Row, sort: Sort): number {
  switch (sort) {
    case 'position':
      return collator.compare(a.selection.position.title, b.selection.position.title);
    case 'status':
      return statuses.indexOf(a.selection.status) - statuses.indexOf(b.selection.status);
    case 'updated':
      return Date.parse(a.selection.updated_at) - Date.parse(b.selection.updated_at);
    default:
      return collator.compare(a.name, b.name);
  }
}

// shown is the page of rows the state asks for, and how many match in
// all. Ties keep the applicant's name and then the position in order; a
// page past the end shows the last one.
export function shown(rows: readonly Row[], s: BoardState): { rows: Row[]; total: number; page: number } {
  const q = s.q.trim().toLocaleLowerCase();
  const matching = rows.filter(
    (r) =>
      (!s.status || r.selection.status === s.status) &&
      (!q || r.name.toLocaleLowerCase().includes(q) || r.applicant.email.toLocaleLowerCase().includes(q)),
  );
  const dir = s.order === 'asc' ? 1 : -1;
  matching.sort((a, b) => dir * compare(a, b, s.sort) || compare(a, b, 'name') || compare(a, b, 'position'));
  const pages = Math.max(1, Math.ceil(matching.length / s.pageSize));
  const page = Math.min(s.page, pages);
  return { rows: matching.slice((page - 1) * s.pageSize, page * s.pageSize), total: matching.length, page };
}
