// The four scores of a review: their ranges come from the server's rules
// (rules.gen.ts, generated from api/openapi.yaml), never retyped here.
import { review } from '$lib/i18n/review';
import { body_submitReview } from '$lib/rules.gen';
import type { FieldErrors } from '$lib/utilities/forms';

export const scoreFields = ['resume_score', 'links_score', 'q1_score', 'q2_score'] as const;
export type ScoreField = (typeof scoreFields)[number];
export type Scores = Record<ScoreField, string>;

// range is a score's lowest and highest value.
export function range(f: ScoreField): { min: number; max: number } {
  const r = body_submitReview[f];
  return { min: r.minimum, max: r.maximum };
}

// options are a score's choices, lowest first.
export function options(f: ScoreField): { value: string; label: string }[] {
  const { min, max } = range(f);
  return Array.from({ length: max - min + 1 }, (_, i) => String(min + i)).map((v) => ({ value: v, label: v }));
}

export function emptyScores(): Scores {
  return { resume_score: '', links_score: '', q1_score: '', q2_score: '' };
}

// checkScores says, per score, what is missing or out of range.
export function checkScores(s: Scores): FieldErrors<ScoreField> {
  const out: FieldErrors<ScoreField> = {};
  for (const f of scoreFields) {
    const { min, max } = range(f);
    const n = Number(s[f]);
    if (s[f] === '' || !Number.isInteger(n) || n < min || n > max) out[f] = review.form.choose[f];
  }
  return out;
}

// toBody is the request body of POST /api/review/submit.
export function toBody(applicationId: string, s: Scores) {
  return {
    application_id: applicationId,
    resume_score: Number(s.resume_score),
    links_score: Number(s.links_score),
    q1_score: Number(s.q1_score),
    q2_score: Number(s.q2_score),
  };
}

// fieldId is the id of a score's group on the page (the error summary links to it).
export const fieldId = (f: ScoreField) => `score-${f}`;

// noteMax is the longest a review's private note may be (from the server's rules).
export const noteMax: number = body_submitReview.note.maxLength;
