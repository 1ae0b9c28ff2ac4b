// The email list's view in the URL: recipient, kind, page and page size,
// so a filtered view can be shared and survives a reload. Defaults are
// left out of the URL.
import { param, urlQuery } from '$lib/utilities/urlQuery';

export const listQuery = urlQuery({
  to: param.text('to', { trim: true, max: 320 }),
  kind: param.text('kind', { trim: true }),
  page: param.page(),
  pageSize: param.pageSize(),
});
