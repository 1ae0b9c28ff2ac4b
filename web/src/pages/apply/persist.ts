// The form's copy in the browser (localStorage, `hackdesk.apply.v1.<profile
// id>`) and how it meets the server's draft on load. "Newer wins" without
// trusting clocks: the local copy remembers the server `updated_at` it last
// synced from (`syncedAt`). A server copy with another updated_at changed
// since (on another device, say) and wins; otherwise the server holds
// nothing this device has not seen, and the local copy, which may hold
// more, wins.
import { isObject, readCopy, removeCopy, writeCopy, type Store } from '$lib/utilities/localCopy';
import { clampPage } from './pages';
import { emptyValues, fromServer, type ServerApplication, type TeamMember, type Values } from './model';

export type LocalCopy = {
  profileId: string;
  values: Values;
  page: number;
  resumeName: string | null;
  syncedAt: string | null;
};

export { browserStore, type Store } from '$lib/utilities/localCopy';

export const keyOf = (profileId: string) => `hackdesk.apply.v1.${profileId}`;
const strings = (x: unknown): string[] => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);

// values reads stored values over the empty form, keeping only fields of
// the right type: a copy from an older version still loads.
function values(raw: unknown): Values {
  const v = emptyValues();
  if (!isObject(raw)) return v;
  for (const [k, x] of Object.entries(v)) {
    const got = raw[k];
    if (typeof x === 'string' && typeof got === 'string') (v as Record<string, unknown>)[k] = got;
    if (typeof x === 'boolean' && typeof got === 'boolean') (v as Record<string, unknown>)[k] = got;
  }
  v.position_ids = strings(raw.position_ids);
  if (isObject(raw.answers)) {
    for (const [k, a] of Object.entries(raw.answers)) if (typeof a === 'string') v.answers[k] = a;
  }
  if (Array.isArray(raw.team)) {
    v.team = raw.team
      .filter((m): m is Record<string, unknown> => isObject(m) && typeof m.email === 'string')
      .map((m): TeamMember => ({ email: m.email as string, name: typeof m.name === 'string' ? m.name : null }));
  }
  return v;
}

// readLocal is the stored copy of this profile, or null (none, unreadable,
// or another profile's).
export function readLocal(store: Store | null, profileId: string): LocalCopy | null {
  const raw = readCopy(store, keyOf(profileId), profileId);
  if (!raw) return null;
  return {
    profileId,
    values: values(raw.values),
    page: clampPage(raw.page),
    resumeName: typeof raw.resumeName === 'string' ? raw.resumeName : null,
    syncedAt: typeof raw.syncedAt === 'string' ? raw.syncedAt : null,
  };
}

// writeLocal keeps the copy; when it cannot, the server draft still holds
// the answers.
export function writeLocal(store: Store | null, copy: LocalCopy): void {
  writeCopy(store, keyOf(copy.profileId), copy);
}

export function clearLocal(store: Store | null, profileId: string): void {
  removeCopy(store, keyOf(profileId));
}

export type Merged = {
  // which copy the form starts from
  source: 'empty' | 'local' | 'server';
  values: Values;
  // what the server holds, as the autosave compares with it
  base: Values;
  page: number;
  resumeName: string | null;
  syncedAt: string | null;
};

// merge decides what the form starts from. `email` and `marketing` (the
// profile's opt-in) fill a new form; a new server draft holds the email
// only (and no opt-in) until the autosave sends more.
export function merge(local: LocalCopy | null, server: ServerApplication | null, email: string, marketing: boolean): Merged {
  const fresh = emptyValues(email, false);
  if (!server) {
    if (!local) return { source: 'empty', values: emptyValues(email, marketing), base: fresh, page: 0, resumeName: null, syncedAt: null };
    return { source: 'local', values: local.values, base: fresh, page: local.page, resumeName: local.resumeName, syncedAt: null };
  }
  const base = fromServer(server);
  if (local && local.syncedAt === server.updated_at) {
    return { source: 'local', values: local.values, base, page: local.page, resumeName: local.resumeName, syncedAt: server.updated_at };
  }
  return {
    source: 'server',
    values: fromServer(server),
    base,
    page: local?.page ?? 0,
    resumeName: local?.resumeName ?? null,
    syncedAt: server.updated_at,
  };
}
