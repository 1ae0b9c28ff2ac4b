// What the autosave sends: the fields changed since the server's copy
// (`base`) that pass the browser's rules. A field that fails them (a
// half-typed URL) is held back without holding back the rest; so is a
// value the server has just refused, until it changes.
import type { ApplicationPatch } from '$lib/services/applications';
import { checkText, maxPositions, maxTeam, type Question } from './check';
import { boolFields, numberFields, same, teamEmails, textFields, type Values } from './model';

export type Patch = ApplicationPatch;
export type Built = { patch: Patch; fields: string[]; held: string[] };

const sameSet = (a: readonly string[], b: readonly string[]) => same([...a].sort(), [...b].sort());

// valueOf is a field's value as buildPatch compares it (refused values are
// remembered by it).
export function valueOf(v: Values, field: string): unknown {
  if (field === 'team_members') return teamEmails(v.team);
  if (field.startsWith('answers.')) return (v.answers[field.slice(8)] ?? '').trim();
  const x = (v as Record<string, unknown>)[field];
  return typeof x === 'string' ? x.trim() : x;
}

export function buildPatch(
  v: Values,
  base: Values,
  questions: readonly Question[],
  refused: Readonly<Record<string, unknown>> = {},
): Built {
  const patch: Record<string, unknown> = {};
  const fields: string[] = [];
  const held: string[] = [];
  const refusedNow = (f: string) => f in refused && same(refused[f], valueOf(v, f));

  for (const f of textFields) {
    if (same(v[f], base[f])) continue;
    if (refusedNow(f) || checkText(f, v[f], false) !== null) {
      held.push(f);
      continue;
    }
    const t = v[f].trim();
    patch[f] = t === '' ? null : numberFields.has(f) ? Number(t) : t;
    fields.push(f);
  }
  for (const f of boolFields) {
    if (v[f] === base[f]) continue;
    patch[f] = v[f];
    fields.push(f);
  }
  if (!sameSet(v.position_ids, base.position_ids)) {
    if (v.position_ids.length > maxPositions || refusedNow('position_ids')) held.push('position_ids');
    else {
      patch.position_ids = [...v.position_ids];
      fields.push('position_ids');
    }
  }
  if (teamEmails(v.team) !== teamEmails(base.team)) {
    if (v.team.length > maxTeam || refusedNow('team_members')) held.push('team_members');
    else {
      patch.team_members = teamEmails(v.team);
      fields.push('team_members');
    }
  }
  // Answers go only for the questions that apply now; the server refuses
  // the others (and drops them itself when positions change).
  const answers: Record<string, string | null> = {};
  for (const q of questions) {
    const now = (v.answers[q.id] ?? '').trim();
    if (now === (base.answers[q.id] ?? '').trim()) continue;
    const key = `answers.${q.id}`;
    if (refusedNow(key) || checkText(key, now, false, questions) !== null) {
      held.push(key);
      continue;
    }
    answers[q.id] = now === '' ? null : now;
    fields.push(key);
  }
  if (Object.keys(answers).length) patch.answers = answers;
  return { patch: patch as Patch, fields, held };
}
