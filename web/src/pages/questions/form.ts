// The question form's values, checks and request body. The field rules are
// the server's (rules.gen.ts); nothing here repeats them.
import type { Position } from '$lib/services/positions';
import type { BankQuestion, QuestionBody } from '$lib/services/questions';
import { body_createBankQuestion } from '$lib/rules.gen';
import { checkFields, type FieldErrors, type Words } from '$lib/utilities/forms';

export type Question = BankQuestion;
export type Body = QuestionBody;
export type { Position };

export const fields = ['prompt', 'char_limit', 'placeholder', 'help_text'] as const;
export type Field = (typeof fields)[number];
export type Values = {
  prompt: string;
  type: 'text' | 'textarea';
  char_limit: string;
  placeholder: string;
  help_text: string;
  required: boolean;
  positions: string[];
};

export function valuesOf(q: Question | null): Values {
  return {
    prompt: q?.prompt ?? '',
    type: q?.type ?? 'textarea',
    char_limit: q?.char_limit != null ? String(q.char_limit) : '',
    placeholder: q?.placeholder ?? '',
    help_text: q?.help_text ?? '',
    required: q?.required ?? false,
    positions: [...(q?.position_ids ?? [])],
  };
}

// checkQuestion says what is wrong with each field, in the given words.
export function checkQuestion(v: Values, words: Words<Field>): FieldErrors<Field> {
  return checkFields(body_createBankQuestion, v, fields, words);
}

// bodyOf is the create or patch body: every field, an empty limit as null
// (no limit of the question's own).
export function bodyOf(v: Values): Body {
  const limit = v.char_limit.trim();
  return {
    prompt: v.prompt.trim(),
    type: v.type,
    char_limit: limit === '' ? null : Number(limit),
    placeholder: v.placeholder.trim(),
    help_text: v.help_text.trim(),
    required: v.required,
    position_ids: [...new Set(v.positions)],
  };
}

// offered is the positions the form offers: a VP's subteam's (subteam
// set), a President's all; a position the question already has stays
// offered so it can be kept or removed.
export function offered(all: readonly Position[], subteam: string | null, chosen: readonly string[]): Position[] {
  return all.filter((p) => subteam === null || p.subteam === subteam || chosen.includes(p.id));
}

// readOnlyReason says why a question the caller may not change is read
// only: a general one is the President's, the others another subteam's.
export function readOnlyReason(q: Question): 'general' | 'otherSubteam' | null {
  if (q.editable) return null;
  return q.position_ids.length === 0 ? 'general' : 'otherSubteam';
}
