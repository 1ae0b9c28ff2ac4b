// What both pages read: the caller's application in the current edition
// and their applications of earlier editions, and for the summary its
// resume, the positions and the questions' prompts.
import { applications, type EarlierApplication, type Question, type Resume } from '$lib/services/applications';
import { hackathons, type Hackathon } from '$lib/services/hackathons';
import { positions as positionService, type Position } from '$lib/services/positions';
import type { ServerApplication } from '../apply/model';

export type Mine = { app: ServerApplication | null; earlier: EarlierApplication[]; edition: Hackathon | null };

// loadApplication reads them; earlier editions' and the current
// edition's name are left out when they cannot be read (the current
// edition's application is what the pages are about).
export async function loadApplication(): Promise<Mine> {
  const [app, earlier, edition] = await Promise.all([
    applications.mine(),
    applications.history().catch(() => [] as EarlierApplication[]),
    hackathons.current().catch(() => null),
  ]);
  return { app, earlier, edition };
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
