// The President's hiring board: the term's applicants and their
// selections with the statuses each may move to, the team finalization
// makes, finalizing, and the finalization as it runs.
import { call, client } from './client';
import type { Ok, Schemas } from './types';

export type HiringApplicant = Schemas['HiringApplicant'];
export type Team = Ok<'/api/applications/hiring/team'>;
export type Finalization = Ok<'/api/applications/hiring/finalization'>;
export type HiringStatus = Schemas['HiringApplicant']['selections'][number]['status'];

export const hiring = {
  // board is every applicant with their selections: reason "noTerm" when
  // there is no hiring term.
  board: async (): Promise<HiringApplicant[]> => (await call(client.GET('/api/applications/hiring'))).applicants,
  team: (): Promise<Team> => call(client.GET('/api/applications/hiring/team')),
  // finalization is the run's state: kind "unavailable" when Temporal is
  // out of reach, "forbidden" once the run ended the caller's own role.
  finalization: (): Promise<Finalization> => call(client.GET('/api/applications/hiring/finalization')),
  // setStatus moves a selection: kind "conflict" (the move is not
  // allowed now; refusedMove in ./selections reads which), "forbidden"
  // or "notFound".
  setStatus: (id: string, status: HiringStatus) =>
    call(client.PATCH('/api/applications/hiring/selections/{id}', { params: { path: { id } }, body: { status } })),
  // finalize starts the finalization: kind "invalid" with
  // details.all_hands_url, or reason "nothingToFinalize" or
  // "notHiringTerm".
  finalize: (termId: string, allHandsUrl: string) =>
    call(client.POST('/api/applications/hiring/finalize', { body: { term_id: termId, all_hands_url: allHandsUrl } })),
};
