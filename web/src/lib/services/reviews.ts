// Reviewing: the next application to score and the review itself, the
// leaderboard of reviewers (with one reviewer's averages) and the review
// settings (blind review and the review cap) with their history.
import { call, client } from './client';
import type { Body, Ok, Schemas } from './types';

export type ReviewApplication = Schemas['ReviewApplication'];
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
  next: async (): Promise<ReviewApplication> => (await call(client.GET('/api/applications/random'))).application,
  // submit records a review and answers the reviewer's total so far:
  // kind "invalid" (details by score), or "forbidden", "notFound",
  // "conflict" for an application the reviewer can no longer review.
  submit: async (body: ReviewBody): Promise<number> => (await call(client.POST('/api/review/submit', { body }))).total_reviews,
  // leaderboard is the ranking and the statistics; `failed` names the
  // parts the server could not read.
  leaderboard: async (): Promise<Board> => {
    const a = (await call(client.GET('/api/admin/leaderboard'))) as Board;
    return { ...a, failed: a.failed ?? [] };
  },
  reviewer: async (reviewerId: string): Promise<ReviewerScores> =>
    ((await call(client.GET('/api/admin/leaderboard', { params: { query: { reviewerId } } }))) as Extract<Answer, { reviewerScores: unknown }>).reviewerScores,
  settings: (): Promise<ReviewSettings> => call(client.GET('/api/admin/review-settings')),
  // saveSettings refuses with kind "invalid" and details by field.
  saveSettings: (blind: boolean, cap: number | null) => call(client.PATCH('/api/admin/review-settings', { body: { blind, cap } })),
};
