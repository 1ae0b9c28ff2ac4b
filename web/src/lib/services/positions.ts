// The positions of the hiring term: what an applicant can choose and
// what the exec pages filter by.
import { call, client } from './client';
import type { Schemas } from './types';

export type Position = Schemas['Position'];

export const positions = {
  list: async (): Promise<Position[]> => (await call(client.GET('/api/positions'))).positions,
};
