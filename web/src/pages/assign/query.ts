// The users list's view as a URL query: q, role, page and page_size, so a
// view can be shared and survives a reload.
import { param, urlQuery } from '$lib/utilities/urlQuery';

export const roles = ['member', 'admin', 'superadmin'] as const;
export type Role = (typeof roles)[number];

export const listQuery = urlQuery({
  q: param.text('q', { max: 100, trim: true }),
  role: param.choice('role', roles, ''),
  page: param.page(),
  pageSize: param.pageSize(),
});
export const defaults = listQuery.defaults;
