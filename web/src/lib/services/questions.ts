// The question bank: every live question with the positions it is asked
// for, and adding, changing and deleting one (a question with answers is
// archived instead).
import { call, client } from './client';
import type { Schemas } from './types';

export type BankQuestion = Schemas['BankQuestion'];
export type QuestionBody = Schemas['QuestionBody'];

export const questions = {
  list: async (): Promise<BankQuestion[]> => (await call(client.GET('/api/applications/review/questions'))).questions,
  // create and update refuse with kind "invalid" (details by field),
  // "forbidden" (outside the caller's subteam) or "notFound".
  create: (body: QuestionBody) => call(client.POST('/api/applications/review/questions', { body })),
  update: (id: string, body: QuestionBody) => call(client.PATCH('/api/applications/review/questions/{id}', { params: { path: { id } }, body })),
  // remove answers whether the question was archived (it had answers)
  // rather than deleted; kind "notFound" when it is gone already.
  remove: async (id: string): Promise<{ archived: boolean }> => call(client.DELETE('/api/applications/review/questions/{id}', { params: { path: { id } } })),
};
