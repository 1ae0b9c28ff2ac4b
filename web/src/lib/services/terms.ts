// Terms: the list (latest start first, a page at a time), creating and
// editing one, making one active, and the active term.
import { call, client } from './client';
import type { Schemas } from './types';

export type Term = Schemas['Term'];
export type TermBody = Schemas['TermBody'];
export type TermList = { terms: Term[]; total: number };

export const terms = {
  list: async (page = 1, pageSize = 25): Promise<TermList> => {
    const r = await call(client.GET('/api/admin/terms', { params: { query: { page, page_size: pageSize } } }));
    return { terms: r.terms, total: r.total };
  },
  // recent is the latest terms (a choice of terms in a form): up to 50,
  // the hiring term (the one that starts last) first.
  recent: async (): Promise<Term[]> => (await terms.list(1, 50)).terms,
  // active is the active term: kind "notFound" when there is none.
  active: async (): Promise<Term> => (await call(client.GET('/api/terms/active'))).term,
  // create and update (also making a term active) refuse with kind
  // "invalid" (details by field), "conflict" (a name in use) or "notFound".
  create: async (body: TermBody): Promise<Term> => (await call(client.POST('/api/admin/terms', { body }))).term,
  update: async (id: string, body: TermBody): Promise<Term> =>
    (await call(client.PATCH('/api/admin/terms/{id}', { params: { path: { id } }, body }))).term,
};
