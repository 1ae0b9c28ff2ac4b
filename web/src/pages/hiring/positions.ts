// The positions section's form: a position's values, the browser's check
// against the server's rules (rules.gen.ts), the create or patch body, and
// the question bank changes that give the position the questions ticked
// for it (a question's positions are set on the question).
import { body_createPosition } from '$lib/rules.gen';
import type { Position, PositionCreate } from '$lib/services/positions';
import type { BankQuestion } from '$lib/services/questions';
import { checkFields, type FieldErrors, type Words } from '$lib/utilities/forms';

export type { Position, BankQuestion };
export const grants = body_createPosition.grants.enum;
export type Grant = (typeof grants)[number];
export const fields = ['title', 'subteam', 'description'] as const;
export type Field = (typeof fields)[number];
export type Values = {
  title: string;
  subteam: string;
  grants: Grant;
  description: string;
  open: boolean;
  questions: string[];
};

// valuesOf is the form's values for a position (null: a new one), with
// the questions asked for it now.
export function valuesOf(p: Position | null, bank: readonly BankQuestion[]): Values {
  return {
    title: p?.title ?? '',
    subteam: p?.subteam ?? '',
    grants: p?.grants ?? 'exec',
    description: p?.description ?? '',
    open: p?.open ?? true,
    questions: p ? bank.filter((q) => q.position_ids.includes(p.id)).map((q) => q.id) : [],
  };
}

export function checkPosition(v: Values, words: Words<Field>): FieldErrors<Field> {
  return checkFields(body_createPosition, v, fields, words);
}

// bodyOf is the create body (the term's) or the patch body: every field.
export function bodyOf(v: Values, termId: string): PositionCreate {
  return {
    term_id: termId,
    title: v.title.trim(),
    subteam: v.subteam.trim(),
    grants: v.grants,
    description: v.description.trim(),
    open: v.open,
  };
}

// questionChanges is, for each question whose positions change, its new
// positions: ticked ones gain the position, unticked ones lose it.
export function questionChanges(bank: readonly BankQuestion[], positionId: string, ticked: readonly string[]): { id: string; position_ids: string[] }[] {
  const out: { id: string; position_ids: string[] }[] = [];
  for (const q of bank) {
    const has = q.position_ids.includes(positionId);
    const wants = ticked.includes(q.id);
    if (has === wants) continue;
    out.push({ id: q.id, position_ids: wants ? [...q.position_ids, positionId] : q.position_ids.filter((x) => x !== positionId) });
  }
  return out;
}

// orphaned is the questions asked only for this position that the form
// unticks: without a position a question is asked of every applicant,
// so the form refuses it (delete it, or give it another position, in the
// question bank).
export function orphaned(bank: readonly BankQuestion[], positionId: string, ticked: readonly string[]): BankQuestion[] {
  return bank.filter((q) => q.position_ids.length === 1 && q.position_ids[0] === positionId && !ticked.includes(q.id));
}

// questionsOf is the questions asked for a position, in the bank's order.
export function questionsOf(bank: readonly BankQuestion[], positionId: string): BankQuestion[] {
  return bank.filter((q) => q.position_ids.includes(positionId));
}
