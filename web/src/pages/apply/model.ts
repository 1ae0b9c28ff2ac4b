// The application as the form holds it: every text as a string (numbers
// too, as typed), the three boxes, the chosen positions, the question-bank
// answers and the team as tags. Conversions to and from the server's record.
import type { Application, OwnerApplication } from '$lib/services/applications';

export const textFields = [
  'email',
  'phone',
  'discord',
  'tshirt_size',
  'dietary_restrictions',
  'age',
  'country',
  'gender',
  'ethnicity',
  'university',
  'program',
  'year_of_study',
  'experience_level',
  'hackathons_attended',
  'github_url',
  'linkedin_url',
  'website_url',
  'q1_answer',
  'q2_answer',
] as const;
export const boolFields = ['coc_agreed', 'info_share_authorized', 'marketing_opt_in'] as const;
export const numberFields: ReadonlySet<string> = new Set(['age', 'hackathons_attended']);

export type TextField = (typeof textFields)[number];
export type BoolField = (typeof boolFields)[number];
export type TeamMember = { email: string; name: string | null };

export type Values = Record<TextField, string> &
  Record<BoolField, boolean> & {
    position_ids: string[];
    answers: Record<string, string>;
    team: TeamMember[];
  };

// The application as the server answers: the owner's view carries the
// team's names, a PATCH or submit answer does not.
export type ServerApplication = Application & Partial<Pick<OwnerApplication, 'team_members_with_names'>>;

export function emptyValues(email = '', marketing = false): Values {
  const v = Object.fromEntries(textFields.map((f) => [f, ''])) as Record<TextField, string>;
  return {
    ...v,
    email,
    coc_agreed: false,
    info_share_authorized: false,
    marketing_opt_in: marketing,
    position_ids: [],
    answers: {},
    team: [],
  };
}

export function teamEmails(team: readonly TeamMember[]): string {
  return team.map((m) => m.email).join(',');
}

// fromServer reads the server's record into form values.
export function fromServer(a: ServerApplication): Values {
  const v = emptyValues();
  for (const f of textFields) {
    const raw = (a as Record<string, unknown>)[f];
    v[f] = raw === null || raw === undefined ? '' : String(raw);
  }
  for (const f of boolFields) v[f] = a[f] === true;
  v.position_ids = [...(a.position_ids ?? [])];
  v.answers = { ...(a.answers ?? {}) };
  const names = new Map((a.team_members_with_names ?? []).map((m) => [m.email.toLowerCase(), m.display_name]));
  v.team = (a.team_members ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((email) => ({ email, name: names.get(email.toLowerCase()) || null }));
  return v;
}

// normal is how a field compares: the server trims text, so "a " is "a".
export function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.trim() === b.trim();
  return JSON.stringify(a) === JSON.stringify(b);
}
