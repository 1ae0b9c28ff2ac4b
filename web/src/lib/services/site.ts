// The links the pages show from the server's configuration: the code of
// conduct applicants accept and the campus shop's membership page.
import { call, client } from './client';
import type { Ok } from './types';

export type SiteLinks = Ok<'/api/site'>;

export const site = {
  links: (): Promise<SiteLinks> => call(client.GET('/api/site')),
};
