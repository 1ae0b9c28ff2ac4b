// The form's copy in the browser (localStorage, `hackdesk.onboarding.v1.
// <kind>.<profile id>`), written on every input and read on return, and
// how it meets the stored submission: the copy remembers the submission's
// `updated_at` it started from (`syncedAt`, null before the first). A
// submission changed since (on another device) wins; otherwise the copy,
// which holds what was typed after, does.
import { isObject, readCopy, removeCopy, writeCopy, type Store } from '$lib/utilities/localCopy';
import { emptyValues, fromSubmission, type Kind, type Submission, type Values } from './model';

export { browserStore, type Store } from '$lib/utilities/localCopy';

export type LocalCopy = {
  profileId: string;
  values: Values;
  // the headshot uploaded from this device and not yet submitted
  headshotKey: string | null;
  headshotName: string | null;
  syncedAt: string | null;
};

export const keyPrefix = 'hackdesk.onboarding.v1.';
export const keyOf = (kind: Kind, profileId: string) => `${keyPrefix}${kind}.${profileId}`;

const text = (x: unknown): string | null => (typeof x === 'string' ? x : null);

// values reads stored values over the empty form, keeping only fields of
// the right type.
function values(raw: unknown): Values {
  const v = emptyValues();
  if (!isObject(raw)) return v;
  for (const [k, x] of Object.entries(v)) {
    const got = raw[k];
    if (typeof x === typeof got) (v as Record<string, unknown>)[k] = got;
  }
  return v;
}

export function readLocal(store: Store | null, kind: Kind, profileId: string): LocalCopy | null {
  const raw = readCopy(store, keyOf(kind, profileId), profileId);
  if (!raw) return null;
  return {
    profileId,
    values: values(raw.values),
    headshotKey: text(raw.headshotKey),
    headshotName: text(raw.headshotName),
    syncedAt: text(raw.syncedAt),
  };
}

export function writeLocal(store: Store | null, kind: Kind, copy: LocalCopy): void {
  writeCopy(store, keyOf(kind, copy.profileId), copy);
}

export function clearLocal(store: Store | null, kind: Kind, profileId: string): void {
  removeCopy(store, keyOf(kind, profileId));
}

export type Start = {
  source: 'empty' | 'local' | 'server';
  values: Values;
  headshotKey: string | null;
  headshotName: string | null;
  syncedAt: string | null;
};

// start decides what the form shows first. A new form starts from the
// profile's name and email.
export function start(local: LocalCopy | null, submission: Submission | null, name: string, email: string): Start {
  const syncedAt = submission?.updated_at ?? null;
  if (local && local.syncedAt === syncedAt) {
    return { source: 'local', values: local.values, headshotKey: local.headshotKey, headshotName: local.headshotName, syncedAt };
  }
  if (submission) return { source: 'server', values: fromSubmission(submission), headshotKey: null, headshotName: null, syncedAt };
  return { source: 'empty', values: emptyValues(name, email), headshotKey: null, headshotName: null, syncedAt: null };
}
