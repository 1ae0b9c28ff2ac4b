// The form's copy in the browser (localStorage, `hackdesk.onboarding.v1.
// <kind>.<profile id>`), written on every input and read on return, and
// how it meets the stored submission: the copy remembers the submission's
// `updated_at` it started from (`syncedAt`, null before the first). A
// submission changed since (on another device) wins; otherwise the copy,
// which holds what was typed after, does.
import { emptyValues, fromSubmission, type Kind, type Submission, type Values } from './model';

export type LocalCopy = {
  profileId: string;
  values: Values;
  // the headshot uploaded from this device and not yet submitted
  headshotKey: string | null;
  headshotName: string | null;
  syncedAt: string | null;
};

export type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const keyPrefix = 'hackdesk.onboarding.v1.';
export const keyOf = (kind: Kind, profileId: string) => `${keyPrefix}${kind}.${profileId}`;

export function browserStore(): Store | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
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
  let raw: unknown;
  try {
    const t = store?.getItem(keyOf(kind, profileId));
    if (!t) return null;
    raw = JSON.parse(t);
  } catch {
    return null;
  }
  if (!isObject(raw) || raw.profileId !== profileId) return null;
  return {
    profileId,
    values: values(raw.values),
    headshotKey: text(raw.headshotKey),
    headshotName: text(raw.headshotName),
    syncedAt: text(raw.syncedAt),
  };
}

export function writeLocal(store: Store | null, kind: Kind, copy: LocalCopy): void {
  try {
    store?.setItem(keyOf(kind, copy.profileId), JSON.stringify(copy));
  } catch {
    // full or unavailable: the form still works, unsaved on this device
  }
}

export function clearLocal(store: Store | null, kind: Kind, profileId: string): void {
  try {
    store?.removeItem(keyOf(kind, profileId));
  } catch {
    // unavailable: nothing stored
  }
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
