// The applicants table's state as the page's URL query (shareable, kept
// on reload; defaults left out), and the rows it shows: one per selection,
// searched, filtered, sorted and cut into pages in the browser (the board
// endpoint answers the whole term at once).
import { body_updateHiringSelection } from '$lib/rules.gen';
import type { HiringApplicant as Applicant } from '$lib/services/hiring';
import { param, urlQuery } from '$lib/utilities/urlQuery';

export type Status = (typeof body_updateHiringSelection.status.enum)[number];
// statuses in review order, as the server lists them.
export const statuses: readonly Status[] = body_updateHiringSelection.status.enum;
export const sorts = ['name', 'position', 'status', 'updated'] as const;
export type Sort = (typeof sorts)[number];

export const boardQuery = urlQuery({
  termId: param.uuid('term_id'), // '': the page's default term
  q: param.text('q', { max: 100 }),
  status: param.choice('status', statuses, ''),
  sort: param.choice('sort', sorts, 'name'),
  order: param.order('asc'),
  page: param.page(),
  pageSize: param.pageSize(),
});
export type BoardState = ReturnType<typeof boardQuery.parse>;
export const defaults = boardQuery.defaults;

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
