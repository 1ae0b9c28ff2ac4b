// The failed runs table's view in the URL: sort column, order and kind
// filter, so a view can be shared and survives a reload. Defaults (newest
// first, every kind) are left out of the URL.
import { param, sortBy, urlQuery } from '$lib/utilities/urlQuery';

export const KINDS = ['hiring', 'receipt', 'term', 'foundry', 'resume', 'rsvp', 'broadcast', 'email', 'erase', 'retention'] as const;
const SORTS = ['closed_at', 'kind', 'status'] as const;
export type SortKey = (typeof SORTS)[number];

export const runsQuery = urlQuery({
  sort: param.choice('sort', SORTS, 'closed_at'),
  order: param.order('desc'),
  kind: param.choice('kind', KINDS, ''),
});
export type RunsView = ReturnType<typeof runsQuery.parse>;
export const DEFAULT_VIEW = runsQuery.defaults;

// nextSort is the view after pressing a column's header: the same column
// flips its order; another starts descending for time, ascending else.
export function nextSort(v: RunsView, key: SortKey): RunsView {
  return sortBy(v, key, (k) => (k === 'closed_at' ? 'desc' : 'asc'));
}

type Row = { kind: string; status: string; closed_at: string; workflow_id: string };

// shown filters and sorts the runs; ties keep the newest first.
export function shown<R extends Row>(runs: readonly R[], v: RunsView): R[] {
  const list = v.kind ? runs.filter((r) => r.kind === v.kind) : [...runs];
  const dir = v.order === 'asc' ? 1 : -1;
  const byTime = (a: R, b: R) => Date.parse(b.closed_at) - Date.parse(a.closed_at);
  return list.sort((a, b) => {
    const c = v.sort === 'closed_at' ? -byTime(a, b) : a[v.sort].localeCompare(b[v.sort]);
    return c !== 0 ? c * dir : byTime(a, b);
  });
}
