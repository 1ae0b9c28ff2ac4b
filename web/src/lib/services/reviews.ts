// Reviewing: the next application to score and the review itself, the
// leaderboard of reviewers (with one reviewer's averages) and the review
// settings (blind review and the review cap) with their history.
import { call, client } from './client';
import type { Body, Ok, Schemas } from './types';

export type ReviewApplication = Schemas['ReviewApplication'];
export type Assignment = Ok<'/api/applications/random'>;
export type Rubric = Schemas['ReviewRubric'];
export type ReviewBody = Body<'submitReview'>;
export type ReviewSettings = Ok<'/api/admin/review-settings'>;
export type SettingsChange = Schemas['ReviewSettingsChange'];

type Answer = Ok<'/api/admin/leaderboard'>;
export type Board = Extract<Answer, { leaderboard: unknown }>;
export type Entry = Board['leaderboard'][number];
export type Statistics = Board['statistics'];
export type ReviewerScores = Extract<Answer, { reviewerScores: unknown }>['reviewerScores'];

export const reviews = {
  // next is the application the server assigns this reviewer: kind
  // "notFound" when there is none left to review.
  // The answer says whether it is blind, how many are left in this
  // reviewer's queue and the rubric of the scores.
  next: (): Promise<Assignment> => call(client.GET('/api/applications/random')),
  // skip puts the application after every other one in this reviewer's
  // queue; refused as submit is.
  skip: async (applicationId: string): Promise<void> => {
    await call(client.POST('/api/review/skip', { body: { application_id: applicationId } }));
  },
  // submit records a review and answers the reviewer's total so far:
  // kind "invalid" (details by score), or "forbidden", "notFound",
  // "conflict" for an application the reviewer can no longer review
  // (reason notCurrentHackathon: its edition stopped being the current
  // one).
  submit: async (body: ReviewBody): Promise<number> => (await call(client.POST('/api/review/submit', { body }))).total_reviews,
  // leaderboard is one edition's ('' for the current one) ranking and
  // statistics; `failed` names the parts the server could not read.
  leaderboard: async (hackathon = ''): Promise<Board> => {
    const a = (await call(client.GET('/api/admin/leaderboard', { params: { query: hackathon ? { hackathon } : {} } }))) as Board;
    return { ...a, failed: a.failed ?? [] };
  },
  // reviewer is one reviewer's averages in an edition.
  reviewer: async (reviewerId: string, hackathon = ''): Promise<ReviewerScores> =>
    (
      (await call(client.GET('/api/admin/leaderboard', { params: { query: hackathon ? { reviewerId, hackathon } : { reviewerId } } }))) as Extract<
        Answer,
        { reviewerScores: unknown }
      >
    ).reviewerScores,
  settings: (): Promise<ReviewSettings> => call(client.GET('/api/admin/review-settings')),
  // saveSettings refuses with kind "invalid" and details by field.
  saveSettings: (blind: boolean, cap: number | null, rubric?: Rubric) =>
    call(client.PATCH('/api/admin/review-settings', { body: rubric ? { blind, cap, rubric } : { blind, cap } })),
};
