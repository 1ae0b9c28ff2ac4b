// The member search's view as it lives in the URL query (q, status,
// page, page_size), so a view can be shared and survives a reload, and the
// payment form's amount: dollars typed by the exec, cents for the API.
import { param, urlQuery } from '$lib/utilities/urlQuery';

export const listQuery = urlQuery({
  q: param.text('q'),
  status: param.choice('status', ['paid', 'unpaid'] as const, ''),
  page: param.page(),
  pageSize: param.pageSize(),
});

// The most one payment may record, in cents (the API's limit).
export const maxAmountCents = 10_000_000;

export type Amount = { ok: true; cents: number } | { ok: false; problem: 'required' | 'format' | 'low' | 'high' };

// parseAmount turns dollars as typed ("20", "20.5", "$20.00", "1,000")
// into cents and checks them against the dues (when known) and the limit.
export function parseAmount(text: string, duesCents: number | null): Amount {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (t === '') return { ok: false, problem: 'required' };
  const m = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(t) ?? /^()\.(\d{1,2})$/.exec(t);
  if (!m) return { ok: false, problem: 'format' };
  const cents = Number(m[1] || '0') * 100 + Number((m[2] ?? '').padEnd(2, '0') || '0');
  if (cents > maxAmountCents) return { ok: false, problem: 'high' };
  if (cents < 1 || (duesCents !== null && cents < duesCents)) return { ok: false, problem: 'low' };
  return { ok: true, cents };
}

// dollars is cents as the amount field shows them ("20.00").
export function dollars(cents: number): string {
  return (cents / 100).toFixed(2);
}

// detailPath reads /admin/memberships/{id}: the id, or null on the list.
export function detailId(pathname: string): string | null {
  const m = /^\/admin\/memberships\/([^/]+)\/?$/.exec(pathname);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}
