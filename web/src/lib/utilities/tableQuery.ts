// The state of a searchable, filterable, sortable and paged table as the
// page's URL query: what is in the query is the view (shareable, survives
// reload); defaults are left out of the URL. One table's query is
// tableQuery(its sorts, its statuses, its default sort and order).
export type Order = 'asc' | 'desc';
export const pageSizes = [10, 25, 50] as const;

export type TableState<Sort extends string, Status extends string> = {
  q: string;
  status: Status | '';
  sort: Sort;
  order: Order;
  page: number;
  pageSize: number;
};

const maxQ = 100;

function oneOf<T extends string>(v: string | null, set: readonly T[], def: T): T {
  return v !== null && (set as readonly string[]).includes(v) ? (v as T) : def;
}

export function tableQuery<Sort extends string, Status extends string>(
  sorts: readonly Sort[],
  statuses: readonly Status[],
  sort: Sort,
  order: Order,
) {
  type State = TableState<Sort, Status>;
  const defaults: State = { q: '', status: '', sort, order, page: 1, pageSize: 25 };
  return {
    defaults,
    // parse reads a URL query (location.search); anything unknown or out
    // of range falls back to its default.
    parse(search: string): State {
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
    },
    // format writes the state as a URL query ("" or "?..."), defaults left out.
    format(s: State): string {
      const p = new URLSearchParams();
      if (s.q.trim()) p.set('q', s.q.trim());
      if (s.status) p.set('status', s.status);
      if (s.sort !== defaults.sort) p.set('sort', s.sort);
      if (s.order !== defaults.order) p.set('order', s.order);
      if (s.page !== 1) p.set('page', String(s.page));
      if (s.pageSize !== defaults.pageSize) p.set('page_size', String(s.pageSize));
      const out = p.toString();
      return out ? `?${out}` : '';
    },
    // sortBy is the state after pressing a column's header: the same
    // column turns its order round; another starts ascending, on the first
    // page.
    sortBy(s: State, key: Sort): State {
      if (s.sort === key) return { ...s, order: s.order === 'asc' ? 'desc' : 'asc', page: 1 };
      return { ...s, sort: key, order: 'asc', page: 1 };
    },
  };
}
