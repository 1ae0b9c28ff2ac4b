// The users list's view as a URL query: q, role, page and page_size, so a
// view can be shared and survives a reload. Unknown or out-of-range values
// fall back to the defaults; defaults are left out of the URL.
export const roles = ['member', 'admin', 'superadmin'] as const;
export type Role = (typeof roles)[number];
export const pageSizes = [10, 25, 50] as const;

export type View = { q: string; role: Role | ''; page: number; pageSize: number };
export const defaults: View = { q: '', role: '', page: 1, pageSize: 25 };

function positive(s: string | null, fallback: number): number {
  if (!s || !/^\d+$/.test(s)) return fallback;
  const n = Number(s);
  return n >= 1 && n <= 10000 ? n : fallback;
}

export function parseView(search: string): View {
  const u = new URLSearchParams(search);
  const role = u.get('role') ?? '';
  const size = positive(u.get('page_size'), defaults.pageSize);
  return {
    q: (u.get('q') ?? '').trim().slice(0, 100),
    role: (roles as readonly string[]).includes(role) ? (role as Role) : '',
    page: positive(u.get('page'), 1),
    pageSize: (pageSizes as readonly number[]).includes(size) ? size : defaults.pageSize,
  };
}

export function viewQuery(v: View): string {
  const u = new URLSearchParams();
  if (v.q) u.set('q', v.q);
  if (v.role) u.set('role', v.role);
  if (v.page !== 1) u.set('page', String(v.page));
  if (v.pageSize !== defaults.pageSize) u.set('page_size', String(v.pageSize));
  const s = u.toString();
  return s ? `?${s}` : '';
}
