// The list's view as the page's URL query: what is in the query is the
// view (shareable, survives reload); defaults are left out of the URL.
import { param, urlQuery } from '$lib/utilities/urlQuery';

export const statuses = ['in_review', 'interviewing', 'wanted', 'not_wanted', 'offer_sent', 'accepted_offer', 'declined_offer', 'rejection_sent'] as const;

export const listQuery = urlQuery({
  termId: param.uuid('term_id'), // '': the page's default term
  q: param.text('q'),
  status: param.choice('status', statuses, ''),
  position: param.uuid('position_id'),
  page: param.page(),
  pageSize: param.pageSize(10),
});
export type ListState = ReturnType<typeof listQuery.parse>;
export const defaults = listQuery.defaults;

// filtered says whether the view narrows the list (search or a filter).
export function filtered(s: ListState): boolean {
  return s.q.trim() !== '' || s.status !== '' || s.position !== '';
}
