// The table's view as the page's URL query (lib/utilities/urlQuery), and
// the helpers of the details and decisions.
import { adminSorts, decisionFilters, rsvpFilters } from '$lib/services/applications';
import { param, urlQuery } from '$lib/utilities/urlQuery';

// The edition comes first: '' is the current one (left out of the URL).
export const listQuery = urlQuery({
  hackathon: param.uuid('hackathon'),
  q: param.text('q', { max: 100 }),
  status: param.choice('status', ['draft', 'submitted'] as const, ''),
  decision: param.choice('decision', decisionFilters, ''),
  rsvp: param.choice('rsvp', rsvpFilters, ''),
  sort: param.choice('sort', adminSorts, 'created_at'),
  order: param.order('desc'),
  page: param.page(),
  pageSize: param.pageSize(),
});
export const defaults = listQuery.defaults;

// The details page's edition (?hackathon=, '' for the current one).
export const detailsQuery = urlQuery({ hackathon: param.uuid('hackathon') });

// inEdition is a path with the edition's ?hackathon= when it is not the
// current one ('').
export function inEdition(path: string, hackathon: string): string {
  return path + detailsQuery.format({ hackathon });
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
