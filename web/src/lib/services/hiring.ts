// The President's hiring board: a term's applicants and their selections
// with the statuses each may move to, the team finalization makes,
// finalizing, and the finalization as it runs; and the terms the hiring
// pages offer. A term id of '' is the server's default (the hiring term).
import { call, client } from './client';
import type { Ok, Schemas } from './types';

export type HiringApplicant = Schemas['HiringApplicant'];
export type Team = Ok<'/api/applications/hiring/team'>;
export type Finalization = Schemas['HiringFinalization'];
export type HiringStatus = Schemas['HiringApplicant']['selections'][number]['status'];
export type HiringTerm = Ok<'/api/applications/review/terms'>['terms'][number];

const term = (termId: string) => ({ params: { query: { term_id: termId || undefined } } });

export const hiring = {
  // terms are the terms the hiring pages offer, the hiring term first.
  terms: async (): Promise<HiringTerm[]> => (await call(client.GET('/api/applications/review/terms'))).terms,
  // board is every applicant of the term with their selections: reason
  // "noTerm" when there is no term yet.
  board: async (termId = ''): Promise<HiringApplicant[]> => (await call(client.GET('/api/applications/hiring', term(termId)))).applicants,
  team: (termId = ''): Promise<Team> => call(client.GET('/api/applications/hiring/team', term(termId))),
  // finalization is the term's finalization, readable by the person who
  // started it even once it ended their President role: kind
  // "unavailable" when Temporal is out of reach for a run not finished.
  finalization: (termId: string): Promise<Finalization> =>
    call(client.GET('/api/hiring-finalizations/{term_id}', { params: { path: { term_id: termId } } })),
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
