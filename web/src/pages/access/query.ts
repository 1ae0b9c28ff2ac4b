// The access log's view in the URL: whose reads (actor), about whom
// (subject), page and page size. Defaults are left out of the URL.
import { param, urlQuery } from '$lib/utilities/urlQuery';

export const accessQuery = urlQuery({
  actor: param.uuid('actor'),
  subject: param.uuid('subject'),
  page: param.page(),
  pageSize: param.pageSize(),
});
