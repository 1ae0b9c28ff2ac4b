// The email list's view in the URL: recipient, kind, page and page size,
// so a filtered view can be shared and survives a reload. Defaults are
// left out of the URL.
export type EmailQuery = { to: string; kind: string; page: number; pageSize: number };

export const PAGE_SIZES = [10, 25, 50] as const;
export const DEFAULT_PAGE_SIZE = 25;

function positive(v: string | null): number | undefined {
  if (v === null || !/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 1 ? n : undefined;
}

export function parseQuery(search: string): EmailQuery {
  const p = new URLSearchParams(search);
  const size = positive(p.get('page_size'));
  return {
    to: (p.get('to') ?? '').trim(),
    kind: (p.get('kind') ?? '').trim(),
    page: positive(p.get('page')) ?? 1,
    pageSize: size !== undefined && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

export function toSearch(q: EmailQuery): string {
  const p = new URLSearchParams();
  if (q.to) p.set('to', q.to);
  if (q.kind) p.set('kind', q.kind);
  if (q.page > 1) p.set('page', String(q.page));
  if (q.pageSize !== DEFAULT_PAGE_SIZE) p.set('page_size', String(q.pageSize));
  const s = p.toString();
  return s ? `?${s}` : '';
}
