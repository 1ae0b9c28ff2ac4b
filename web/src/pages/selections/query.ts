// The list's state as the page's URL query: what is in the query is the
// view (shareable, survives reload); defaults are left out of the URL.

export const statuses = ['in_review', 'interviewing', 'wanted', 'not_wanted', 'offer_sent', 'accepted_offer', 'declined_offer', 'rejection_sent'] as const;
export type Status = (typeof statuses)[number];
export const pageSizes = [10, 25, 50] as const;

export type ListState = {
  q: string;
  status: Status | '';
  position: string;
  page: number;
  pageSize: number;
};

export const defaults: ListState = { q: '', status: '', position: '', page: 1, pageSize: 10 };

const maxQ = 200;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// parse reads a URL query (location.search); anything unknown or out of
// range falls back to its default.
export function parse(search: string): ListState {
  const p = new URLSearchParams(search);
  const page = Number(p.get('page'));
  const size = Number(p.get('page_size'));
  const status = p.get('status') ?? '';
  const position = p.get('position_id') ?? '';
  return {
    q: (p.get('q') ?? '').slice(0, maxQ),
    status: (statuses as readonly string[]).includes(status) ? (status as Status) : '',
    position: uuid.test(position) ? position.toLowerCase() : '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (pageSizes as readonly number[]).includes(size) ? size : defaults.pageSize,
  };
}

// format writes the state as a URL query ("" or "?..."), defaults left out.
export function format(s: ListState): string {
  const p = new URLSearchParams();
  if (s.q.trim()) p.set('q', s.q.trim());
  if (s.status) p.set('status', s.status);
  if (s.position) p.set('position_id', s.position);
  if (s.page !== 1) p.set('page', String(s.page));
  if (s.pageSize !== defaults.pageSize) p.set('page_size', String(s.pageSize));
  const out = p.toString();
  return out ? `?${out}` : '';
}

// filtered says whether the view narrows the list (search or a filter).
export function filtered(s: ListState): boolean {
  return s.q.trim() !== '' || s.status !== '' || s.position !== '';
}

// apiQuery is the state as the review endpoint's query parameters.
export function apiQuery(s: ListState) {
  return {
    q: s.q.trim() || undefined,
    status: s.status || undefined,
    position_id: s.position || undefined,
    page: s.page,
    page_size: s.pageSize,
  };
}

// refusedMove reads the statuses out of a refused move's message
// ("cannot move from X to Y"), or null when it says something else.
export function refusedMove(message: string | undefined): { from: string; to: string } | null {
  const m = /^cannot move from ([a-z_]+) to ([a-z_]+)$/.exec(message ?? '');
  return m ? { from: m[1] ?? '', to: m[2] ?? '' } : null;
}
