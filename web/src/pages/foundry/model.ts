// The Foundry generator's steps and answers: one question per step, the
// step in the URL (?step=), the answers kept for this tab, and the name
// checked as typed with the server's rule and against the history.
import { foundry as t } from '$lib/i18n/foundry';
import { body_launchFoundryProject as rules } from '$lib/rules.gen';
import type { LaunchBody, Project } from '$lib/services/foundry';
import { param, urlQuery } from '$lib/utilities/urlQuery';
import { check } from '$lib/utilities/validate';

export const stepKeys = ['type', 'database', 'services', 'team', 'name', 'visibility', 'review'] as const;
export type StepKey = (typeof stepKeys)[number];

export type ProjectType = NonNullable<Project['options']['project_type']>;
export type Database = NonNullable<Project['options']['database']>;

export const projectTypes = rules.project_type.enum as readonly ProjectType[];
export const databases = rules.database.enum as readonly Database[];

export type Answers = {
  project_type: string;
  database: string;
  redis: boolean;
  s3: boolean;
  team_slug: string;
  name: string;
  description: string;
  // 'private' or 'public'; a radio's value
  visibility: string;
};

export type Field = 'project_type' | 'database' | 'team_slug' | 'name' | 'description' | 'visibility';

export function blank(): Answers {
  return { project_type: '', database: '', redis: false, s3: false, team_slug: '', name: '', description: '', visibility: 'private' };
}

// The step that asks for a field (where its error is shown).
export const stepOfField: Record<Field, StepKey> = {
  project_type: 'type',
  database: 'database',
  team_slug: 'team',
  name: 'name',
  description: 'name',
  visibility: 'visibility',
};

// The element id of a field's control, the target of an error link.
export function fieldId(f: Field): string {
  return `f-${f}`;
}

export function stepIndex(k: StepKey): number {
  return stepKeys.indexOf(k);
}

// The step lives in the URL (?step=, an unknown or missing step is the
// first), and ?change=1 when it was opened from the review's Change link
// (Continue then returns to the review).
export const stepQuery = urlQuery({ step: param.choice('step', stepKeys, 'type'), change: param.flag('change') });

// The first step before k whose answers are missing or wrong: a step
// opened by its URL before the earlier ones were answered goes back there.
export function firstGap(a: Answers, k: StepKey, taken: ReadonlySet<string>): StepKey | null {
  for (const s of stepKeys.slice(0, stepIndex(k))) {
    if (problemsOf(s, a, taken).length) return s;
  }
  return null;
}

export type NameProblem = 'required' | 'pattern' | 'dots' | 'taken' | null;

// nameProblem is the name under the server's rule (1 to 100 letters,
// digits, '.', '_' or '-'; not '.' or '..') and the history: a name held
// by a running or succeeded project is taken, compared case-insensitively.
export function nameProblem(name: string, taken: ReadonlySet<string>): NameProblem {
  if (name === '') return 'required';
  if (name !== name.trim()) return 'pattern';
  const p = check(rules.name, name, true);
  if (p) return p.kind === 'required' ? 'required' : 'pattern';
  if (name === '.' || name === '..') return 'dots';
  if (taken.has(name.toLowerCase())) return 'taken';
  return null;
}

// takenNames: the names a new launch may not use (lower-cased).
export function takenNames(projects: readonly { name: string; status: string }[]): Set<string> {
  return new Set(projects.filter((p) => p.status === 'running' || p.status === 'succeeded').map((p) => p.name.toLowerCase()));
}

export type Problem = { field: Field; kind: string };

// problemsOf lists what is missing or wrong on a step.
export function problemsOf(k: StepKey, a: Answers, taken: ReadonlySet<string>): Problem[] {
  const out: Problem[] = [];
  switch (k) {
    case 'type':
      if (!(projectTypes as readonly string[]).includes(a.project_type)) out.push({ field: 'project_type', kind: 'required' });
      break;
    case 'database':
      if (!(databases as readonly string[]).includes(a.database)) out.push({ field: 'database', kind: 'required' });
      break;
    case 'team':
      if (a.team_slug === '' || check(rules.team_slug, a.team_slug, true)) out.push({ field: 'team_slug', kind: 'required' });
      break;
    case 'name': {
      const n = nameProblem(a.name, taken);
      if (n) out.push({ field: 'name', kind: n });
      const d = check(rules.description, a.description, false);
      if (d) out.push({ field: 'description', kind: 'tooLong' });
      break;
    }
    case 'visibility':
      if (a.visibility !== 'private' && a.visibility !== 'public') out.push({ field: 'visibility', kind: 'required' });
      break;
  }
  return out;
}

export function launchBody(a: Answers): LaunchBody {
  return {
    name: a.name,
    description: a.description.trim(),
    project_type: a.project_type as ProjectType,
    database: a.database as Database,
    redis: a.redis,
    s3: a.s3,
    team_slug: a.team_slug,
    private: a.visibility !== 'public',
  };
}

// The answers are kept for this tab (sessionStorage), so a reload or the
// browser's Back keeps them; a launch clears them.
const storeKey = 'hackdesk.foundry.v1';

export function restore(storage: Pick<Storage, 'getItem'> | undefined): Answers {
  const out = blank();
  try {
    const raw = storage?.getItem(storeKey);
    if (!raw) return out;
    const v = JSON.parse(raw) as Record<string, unknown>;
    for (const k of Object.keys(out) as (keyof Answers)[]) {
      if (typeof v[k] === typeof out[k]) (out as Record<string, unknown>)[k] = v[k];
    }
  } catch {
    // unreadable: start again
  }
  return out;
}

export function save(storage: Pick<Storage, 'setItem'> | undefined, a: Answers): void {
  try {
    storage?.setItem(storeKey, JSON.stringify(a));
  } catch {
    // storage full or off: the answers stay in memory
  }
}

export function forget(storage: Pick<Storage, 'removeItem'> | undefined): void {
  try {
    storage?.removeItem(storeKey);
  } catch {
    // nothing kept
  }
}

// problemText is a step's problem in words (the name's with the name).
export function problemText(p: Problem, name: string): string {
  if (p.field === 'name') {
    const w = t.errors.name[p.kind];
    return typeof w === 'function' ? w(name) : (w ?? (t.errors.name.pattern as string));
  }
  return t.errors[p.field];
}
