// Form helpers shared by the pages: the browser's check of a form against
// the server's rules, the server's per-field answers in words, and a
// failed request as one sentence.
import { common } from '../i18n/common';
import { ServiceError } from '../services/errors';
import { number } from './format';
import { describe } from './problems';
import { check, type Problem, type Rule } from './validate';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

// Words: how a form names its fields in messages. `required` is the
// message for an empty field ("Enter your email address"), and a field
// that has one is required on this form even when the rule leaves it
// optional (a PATCH body's fields are); `pattern` is the message for a
// value the field's pattern refuses; `labels` put the field's name into
// length messages ("Password must be 8 characters or more"). Without them
// the generic words are used.
export type Words<K extends string> = {
  readonly required?: { readonly [P in K]?: string };
  readonly pattern?: { readonly [P in K]?: string };
  readonly labels?: { readonly [P in K]?: string };
};

function worded(p: Problem, required?: string, pattern?: string, label?: string): string {
  if (p.kind === 'required' && required) return required;
  if (p.kind === 'pattern' && pattern) return pattern;
  if (p.kind === 'tooShort' && label) return common.fieldProblems.tooShort(label, p.min);
  if (p.kind === 'tooLong' && label) return common.fieldProblems.tooLong(label, p.max);
  return describe(p);
}

// checkFields validates each named field with its rule (in the order
// given) and returns the problems in words, by field.
export function checkFields<K extends string>(
  rules: { readonly [P in K]: Rule },
  values: { readonly [P in K]: string },
  fields: readonly K[],
  words: Words<K> = {},
): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const f of fields) {
    const p = check(rules[f], values[f], words.required?.[f] !== undefined || rules[f].required);
    if (p) out[f] = worded(p, words.required?.[f], words.pattern?.[f], words.labels?.[f]);
  }
  return out;
}

// sentence turns a server reason into a sentence about its field: the
// server says "is too easy to guess", the reader sees "Password is too easy
// to guess." A reason that is already a sentence is kept as it is.
export function sentence(label: string, reason: string): string {
  const r = reason.trim();
  if (r === '') return '';
  const first = r.charAt(0);
  const whole = first !== first.toLowerCase() ? r : `${label} ${r}`;
  return /[.!?]$/.test(whole) ? whole : `${whole}.`;
}

// serverFieldErrors picks the server's `details` for the fields this form
// shows, worded with their labels; `keys` names the detail of a field the
// server calls otherwise (the form's exec is the server's exec.position).
// Details for other fields are left out (the caller shows the general
// message instead).
export function serverFieldErrors<K extends string>(
  e: unknown,
  labels: { readonly [P in K]: string },
  keys: { readonly [P in K]?: string } = {},
): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  if (!(e instanceof ServiceError) || e.kind !== 'invalid') return out;
  for (const f of Object.keys(labels) as K[]) {
    const reason = e.details[keys[f] ?? f];
    if (reason) out[f] = sentence(labels[f], reason);
  }
  return out;
}

// waitText says how long to wait (from Retry-After, in seconds): seconds
// under two minutes, whole minutes (rounded up) above.
export function waitText(seconds: number | undefined): string | undefined {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  const s = Math.ceil(seconds);
  if (s < 120) return common.wait.seconds(number(s), s === 1);
  const m = Math.ceil(s / 60);
  if (m < 120) return common.wait.minutes(number(m), m === 1);
  const h = Math.ceil(m / 60);
  return common.wait.hours(number(h), h === 1);
}

// errorText is a failed request in words: offline, rate limited (with the
// wait), busy, a server fault (never its internals) or the server's own
// message for a refusal.
export function errorText(e: unknown): string {
  if (!(e instanceof ServiceError)) return common.errors.generic;
  switch (e.kind) {
    case 'offline':
      return common.errors.offline;
    case 'rateLimited':
      return common.tooManyAttempts(waitText(e.retryAfter));
    case 'unavailable':
      return common.busy(waitText(e.retryAfter));
    case 'server':
      return common.errors.generic;
    case 'unauthorized':
      return common.errors.signedOut;
    case 'other':
      if (e.status <= 0) return common.errors.generic;
  }
  return e.detail ?? e.title;
}

// summaryItems lists a form's problems for the ErrorSummary, in the order
// of `ids` (the fields' order on the page), each linking to its control.
export function summaryItems<K extends string>(errors: FieldErrors<K>, ids: { readonly [P in K]: string }): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  for (const f of Object.keys(ids) as K[]) {
    const text = errors[f];
    if (text) out.push({ id: ids[f], text });
  }
  return out;
}

// hasErrors says whether any field has a problem.
export function hasErrors(errors: FieldErrors<string>): boolean {
  return Object.values(errors).some(Boolean);
}
