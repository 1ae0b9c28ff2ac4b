// Exec positions: the open positions of the hiring term (what an applicant
// can choose and what the exec pages filter by) and, for a President, a
// term's positions open and closed, with creating, editing, closing and
// deleting one.
import { call, client } from './client';
import type { Body, Schemas } from './types';

export type Position = Schemas['Position'];
export type PositionCreate = Body<'createPosition'>;
export type PositionChange = Body<'updatePosition'>;

export const positions = {
  // list is the term's positions ('' the hiring term's): the open ones,
  // and the closed ones too for a President.
  list: async (termId = ''): Promise<Position[]> =>
    (await call(client.GET('/api/positions', { params: { query: { term_id: termId || undefined } } }))).positions,
  // create and update refuse with kind "invalid" (details by field) or
  // "notFound" (no such term or position).
  create: async (body: PositionCreate): Promise<Position> => (await call(client.POST('/api/positions', { body }))).position,
  update: async (id: string, body: PositionChange): Promise<Position> =>
    (await call(client.PATCH('/api/positions/{id}', { params: { path: { id } }, body }))).position,
  // remove refuses with kind "conflict" for a position someone chose or
  // with questions (close it instead).
  remove: (id: string) => call(client.DELETE('/api/positions/{id}', { params: { path: { id } } })),
};
