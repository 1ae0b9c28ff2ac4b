// Checks fields in the browser with the server's own rules (rules.gen.ts,
// from api/openapi.yaml) before a step is left, and words each problem.
import { apply } from '$lib/i18n/apply';
import { schemaApplicationPatch } from '$lib/rules.gen';
import { describe } from '$lib/utilities/problems';
import { check, type Problem, type Rule } from '$lib/utilities/validate';
import { textFields, type Values } from './model';
import { isRequired } from './required';

const rules: Readonly<Record<string, Rule | undefined>> = schemaApplicationPatch;
const texts: ReadonlySet<string> = new Set(textFields);

export type Question = { id: string; prompt: string; char_limit: number | null; required: boolean };
export type Context = {
  questions: readonly Question[];
  resumeName: string | null;
  uploading: boolean;
};

// The most team members and positions an application may name.
export const maxTeam = rules.team_members?.maxItems ?? 3;
export const maxPositions = rules.position_ids?.maxItems ?? 3;

export function nameOf(field: string, questions: readonly Question[] = []): string {
  if (field.startsWith('answers.')) return questions.find((q) => `answers.${q.id}` === field)?.prompt ?? apply.questions.unknown;
  return apply.names[field] ?? (apply.labels as Record<string, string>)[field] ?? field;
}

// message words a problem of a field (GOV.UK: say what to do).
export function message(field: string, p: Problem): string {
  if (p.kind === 'required') return apply.required[field] ?? apply.problem(nameOf(field), describe(p));
  if (p.kind === 'pattern' && apply.patterns[field]) return apply.patterns[field];
  return apply.problem(nameOf(field), describe(p));
}

// ruleOf is the server's rule of a text field (or of a question's answer).
export function ruleOf(field: string, questions: readonly Question[] = []): Rule | undefined {
  if (field.startsWith('answers.')) {
    const q = questions.find((x) => `answers.${x.id}` === field);
    return { types: ['string'], ...(q?.char_limit ? { maxLength: q.char_limit } : {}) };
  }
  return rules[field];
}

// checkText is one text field's problem under the rules, or null;
// `required` adds the submit rule (Next checks it, the autosave does not).
export function checkText(field: string, value: string, required: boolean, questions: readonly Question[] = []): string | null {
  const rule = ruleOf(field, questions);
  if (!rule) return null;
  const p = check(rule, value, required);
  if (!p) return null;
  if (p.kind === 'required' && field.startsWith('answers.')) {
    const q = questions.find((x) => `answers.${x.id}` === field);
    return apply.answerRequired(q?.prompt ?? apply.questions.unknown);
  }
  return field.startsWith('answers.') ? apply.problem(nameOf(field, questions), describe(p)) : message(field, p);
}

// serverMessage words a server `details` entry: a missing field in the
// form's own words, any other reason after the field's name.
export function serverMessage(field: string, reason: string, questions: readonly Question[] = []): string {
  if (/required|upload a resume|you must/i.test(reason)) {
    if (field.startsWith('answers.')) return apply.answerRequired(nameOf(field, questions));
    if (apply.required[field]) return apply.required[field];
  }
  return apply.problem(nameOf(field, questions), reason);
}

// checkFields returns a message for each listed field with a problem,
// with the submit rule: what requiredForSubmit and the questions need.
export function checkFields(fields: readonly string[], v: Values, ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    if (texts.has(f)) {
      const m = checkText(f, v[f as keyof Values] as string, isRequired(f));
      if (m) out[f] = m;
    } else if (f === 'coc_agreed' || f === 'info_share_authorized') {
      if (!v[f]) out[f] = apply.required[f]!;
    } else if (f === 'resume') {
      if (ctx.uploading) out[f] = apply.resume.uploading;
      else if (!ctx.resumeName) out[f] = apply.required.resume!;
    } else if (f === 'position_ids') {
      if (v.position_ids.length > maxPositions) out[f] = apply.positions.tooMany;
    } else if (f === 'team_members') {
      if (v.team.length > maxTeam) out[f] = apply.team.full;
    } else if (f === 'answers') {
      for (const q of ctx.questions) {
        const key = `answers.${q.id}`;
        const m = checkText(key, v.answers[q.id] ?? '', q.required, ctx.questions);
        if (m) out[key] = m;
      }
    }
  }
  return out;
}
