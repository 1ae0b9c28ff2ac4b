// The failed runs table's view in the URL: sort column, order and kind
// filter, so a view can be shared and survives a reload. Defaults (newest
// first, every kind) are left out of the URL.
export type SortKey = 'closed_at' | 'kind' | 'status';
export type Order = 'asc' | 'desc';
export type RunsView = { sort: SortKey; order: Order; kind: string };

export const KINDS = ['hiring', 'receipt', 'term', 'foundry', 'resume', 'rsvp', 'broadcast', 'email'] as const;
const SORTS: readonly SortKey[] = ['closed_at', 'kind', 'status'];
export const DEFAULT_VIEW: RunsView = { sort: 'closed_at', order: 'desc', kind: '' };

export function parseView(search: string): RunsView {
  const p = new URLSearchParams(search);
  const sort = p.get('sort') as SortKey | null;
  const order = p.get('order');
  const kind = p.get('kind') ?? '';
  return {
    sort: sort && SORTS.includes(sort) ? sort : DEFAULT_VIEW.sort,
    order: order === 'asc' || order === 'desc' ? order : DEFAULT_VIEW.order,
    kind: (KINDS as readonly string[]).includes(kind) ? kind : '',
  };
}

export function toSearch(v: RunsView): string {
  const p = new URLSearchParams();
  if (v.sort !== DEFAULT_VIEW.sort) p.set('sort', v.sort);
  if (v.order !== DEFAULT_VIEW.order) p.set('order', v.order);
  if (v.kind) p.set('kind', v.kind);
  const s = p.toString();
  return s ? `?${s}` : '';
}

// nextSort is the view after pressing a column's header: the same column
// flips its order; another starts descending for time, ascending else.
export function nextSort(v: RunsView, key: SortKey): RunsView {
  if (v.sort === key) return { ...v, order: v.order === 'asc' ? 'desc' : 'asc' };
  return { ...v, sort: key, order: key === 'closed_at' ? 'desc' : 'asc' };
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
