// The application's pages and steps: 11 pages on a small screen, grouped
// into the 6 steps shown on a wide one. A field's page is where its error
// is shown and where a link to it leads.
export type PageKey =
  | 'contact'
  | 'about'
  | 'demographics'
  | 'education'
  | 'experience'
  | 'links'
  | 'q1'
  | 'q2'
  | 'team'
  | 'league'
  | 'review';

export type Page = { key: PageKey; step: number; fields: readonly string[] };

export const pages: readonly Page[] = [
  { key: 'contact', step: 0, fields: ['email', 'phone', 'discord'] },
  { key: 'about', step: 0, fields: ['tshirt_size', 'dietary_restrictions', 'age', 'country'] },
  { key: 'demographics', step: 0, fields: ['gender', 'ethnicity'] },
  { key: 'education', step: 1, fields: ['university', 'program', 'year_of_study'] },
  { key: 'experience', step: 1, fields: ['experience_level', 'hackathons_attended'] },
  { key: 'links', step: 1, fields: ['github_url', 'linkedin_url', 'website_url', 'resume'] },
  { key: 'q1', step: 2, fields: ['q1_answer'] },
  { key: 'q2', step: 2, fields: ['q2_answer', 'position_ids', 'answers'] },
  { key: 'team', step: 3, fields: ['team_members'] },
  { key: 'league', step: 4, fields: ['coc_agreed', 'info_share_authorized', 'marketing_opt_in'] },
  { key: 'review', step: 5, fields: [] },
];

export const stepCount = 6;
export const lastPage = pages.length - 1;

export function clampPage(n: unknown): number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= lastPage ? n : 0;
}

export function stepOf(page: number): number {
  return pages[clampPage(page)]!.step;
}

// The pages of a step, in order.
export function pagesOf(step: number): number[] {
  return pages.flatMap((p, i) => (p.step === step ? [i] : []));
}

export function firstPageOf(step: number): number {
  return pagesOf(step)[0] ?? 0;
}

// pageOfField finds the page that holds a field (a server `details` key:
// `answers.<id>` is a question-bank answer); unknown fields give null.
export function pageOfField(field: string): number | null {
  const name = field.startsWith('answers.') ? 'answers' : field;
  const i = pages.findIndex((p) => p.fields.includes(name));
  return i < 0 ? null : i;
}

// The element id of a field's control, the target of an error link.
export function fieldId(field: string): string {
  return field.startsWith('answers.') ? `f-q-${field.slice('answers.'.length)}` : `f-${field}`;
}

// The field an element id names (the inverse of fieldId).
export function fieldOfId(id: string): string | null {
  if (id.startsWith('f-q-')) return `answers.${id.slice(4)}`;
  return id.startsWith('f-') ? id.slice(2) : null;
}

// Where Next and Back lead: by page below 40rem, by step above.
export function nextPage(page: number, wide: boolean): number {
  if (!wide) return Math.min(page + 1, lastPage);
  return firstPageOf(Math.min(stepOf(page) + 1, stepCount - 1));
}

export function previousPage(page: number, wide: boolean): number {
  if (!wide) return Math.max(page - 1, 0);
  return firstPageOf(Math.max(stepOf(page) - 1, 0));
}

// The pages whose fields are checked when leaving: one page below 40rem,
// the whole step above.
export function pagesLeaving(page: number, wide: boolean): number[] {
  return wide ? pagesOf(stepOf(page)) : [page];
}
