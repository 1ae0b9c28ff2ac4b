// The exec form's values and rules: which form the path names, the form's
// fields as the page holds them, the body PUT sends, and the browser's
// check of a headshot before it is uploaded (the server's rule: JPEG or
// PNG, at most 5 MB; the server reads the content).
import { onboarding as t } from '$lib/i18n/onboarding';
import { body_putOnboardingForm as rules } from '$lib/rules.gen';
import type { ServiceError } from '$lib/services/errors';
import type { ExecFormBody, Kind, Submission } from '$lib/services/onboarding';
import { checkFields, type FieldErrors } from '$lib/utilities/forms';

export type { Kind, Submission };

export const termTypes = ['full_year', 'fall', 'winter', 'summer'] as const;
export const competencies = ['none', 'beginner', 'intermediate', 'advanced'] as const;

// kindOf is the form a page path names.
export function kindOf(path: string): Kind {
  return path.replace(/\/+$/, '') === '/onboarding/returning' ? 'returning' : 'onboarding';
}

export type Values = {
  display_name: string;
  email: string;
  role: string;
  term_type: string;
  chat_handle: string;
  photo_handle: string;
  ds_competency: string;
  consent: boolean;
};

// emptyValues is a new form, starting from the profile's name and email.
export function emptyValues(name = '', email = ''): Values {
  return { display_name: name, email, role: '', term_type: '', chat_handle: '', photo_handle: '', ds_competency: '', consent: false };
}

export function fromSubmission(s: Submission): Values {
  return {
    display_name: s.display_name,
    email: s.email,
    role: s.role,
    term_type: s.term_type,
    chat_handle: s.chat_handle,
    photo_handle: s.photo_handle,
    ds_competency: s.ds_competency,
    consent: s.headshot_consent,
  };
}

// sameValues says whether two forms hold the same answers.
export function sameValues(a: Values, b: Values): boolean {
  return (Object.keys(a) as (keyof Values)[]).every((k) => a[k] === b[k]);
}

export type Body = ExecFormBody;

// bodyOf is what PUT sends: the trimmed answers; the headshot's key (when
// there is one) and the consent box. Without a key the stored headshot,
// if any, stays as it is.
export function bodyOf(v: Values, headshotKey: string | null): Body {
  const body: Body = {
    display_name: v.display_name.trim(),
    email: v.email.trim(),
    role: v.role,
    term_type: v.term_type as Body['term_type'],
    chat_handle: v.chat_handle.trim(),
    photo_handle: v.photo_handle.trim(),
    ds_competency: v.ds_competency as Body['ds_competency'],
  };
  if (headshotKey) {
    body.headshot_key = headshotKey;
    body.headshot_consent = v.consent;
  } else if (v.consent) {
    body.headshot_consent = true;
  }
  return body;
}

export const headshotAccept = '.jpg,.jpeg,.png,image/jpeg,image/png';
export const headshotMaxBytes = 5 * 1024 * 1024;
const imageTypes: ReadonlySet<string> = new Set(['image/jpeg', 'image/png']);
const imageExts: ReadonlySet<string> = new Set(['.jpg', '.jpeg', '.png']);

export type HeadshotProblem = 'wrongType' | 'tooLarge' | 'empty';

export function headshotProblem(file: { name: string; type: string; size: number }): HeadshotProblem | null {
  const dot = file.name.lastIndexOf('.');
  const ext = dot < 0 ? '' : file.name.slice(dot).toLowerCase();
  if (!imageExts.has(ext) || (file.type !== '' && !imageTypes.has(file.type))) return 'wrongType';
  if (file.size === 0) return 'empty';
  if (file.size > headshotMaxBytes) return 'tooLarge';
  return null;
}

export const fields = ['display_name', 'email', 'role', 'term_type', 'headshot', 'consent', 'chat_handle', 'photo_handle', 'ds_competency'] as const;
export type Field = (typeof fields)[number];

// ids are the fields' element ids, the targets of the error summary's
// links, in the form's order.
export const ids = Object.fromEntries(fields.map((f) => [f, `f-${f.replaceAll('_', '-')}`])) as Record<Field, string>;

// refusalOf words a form this caller cannot open, or null for another
// failure.
export function refusalOf(e: ServiceError, kind: Kind): { title: string; message: string; ineligible: boolean } | null {
  if (e.reason === 'formClosed') return { title: t.closedTitle, message: e.detail ?? e.title, ineligible: false };
  if (e.kind === 'forbidden') return { title: t.notForYou.title, message: e.detail ?? t.notForYou[kind], ineligible: true };
  if (e.kind === 'notFound') return { title: t.noTermTitle, message: e.detail ?? e.title, ineligible: false };
  return null;
}

// Photo is where the headshot stands: the browser's refusal of a picked
// file, a file picked and not uploaded yet, a photo stored or uploaded.
export type Photo = { error: string; pending: boolean; held: boolean };

// checkValues is the form checked before it is sent, in words by field:
// the server's rules for the text, a choice for each question, and consent
// for a photo picked or kept.
export function checkValues(v: Values, photo: Photo): FieldErrors<Field> {
  const text = { display_name: v.display_name, email: v.email, chat_handle: v.chat_handle, photo_handle: v.photo_handle };
  const out: FieldErrors<Field> = checkFields(rules, text, ['display_name', 'email', 'chat_handle', 'photo_handle'], {
    required: { display_name: t.required.display_name, email: t.required.email },
    labels: t.labels,
  });
  if (out.email && v.email.trim() !== '') out.email = t.emailFormat;
  if (!v.role) out.role = t.required.role;
  if (!v.term_type) out.term_type = t.required.term_type;
  if (!v.ds_competency) out.ds_competency = t.required.ds_competency;
  if (photo.error) out.headshot = photo.error;
  if (photo.pending && !v.consent) out.consent = t.headshot.consentNeeded;
  else if (photo.held && !v.consent) out.consent = t.headshot.consentKeep;
  return out;
}
