// What both pages read: the caller's application, and for the summary its
// resume, the positions and the questions' prompts.
import { api, unwrap, type Schemas } from '$lib/services/api';
import type { ServerApplication } from '../apply/model';

export type Resume = { name: string; url: string | null; preview_url: string | null };

export function loadApplication(): Promise<ServerApplication | null> {
  return unwrap(api.GET('/api/applications'));
}

export type Extras = { resume: Resume | null; positions: Schemas['Position'][]; questions: Schemas['Question'][] };

// loadExtras never fails: a part that cannot be read is left out.
export async function loadExtras(): Promise<Extras> {
  const [resume, positions, questions] = await Promise.all([
    unwrap(api.GET('/api/applications/resumes')).then(
      (r) => (r.resume ? { name: r.resume.name, url: r.url, preview_url: r.preview_url } : null),
      () => null,
    ),
    unwrap(api.GET('/api/positions')).then(
      (r) => r.positions,
      () => [],
    ),
    unwrap(api.GET('/api/applications/questions')).then(
      (r) => r.questions,
      () => [],
    ),
  ]);
  return { resume, positions, questions };
}
