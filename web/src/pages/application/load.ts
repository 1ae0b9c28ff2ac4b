// What both pages read: the caller's application, and for the summary its
// resume, the positions and the questions' prompts.
import { applications, type Question, type Resume } from '$lib/services/applications';
import { positions as positionService, type Position } from '$lib/services/positions';
import type { ServerApplication } from '../apply/model';

export function loadApplication(): Promise<ServerApplication | null> {
  return applications.mine();
}

export type Extras = { resume: Resume | null; positions: Position[]; questions: Question[] };

// loadExtras never fails: a part that cannot be read is left out.
export async function loadExtras(): Promise<Extras> {
  const [resume, positions, questions] = await Promise.all([
    applications.resume().catch(() => null),
    positionService.list().catch(() => []),
    applications.questions().catch(() => []),
  ]);
  return { resume, positions, questions };
}
