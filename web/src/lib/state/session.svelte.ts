// The signed-in caller, loaded once per page from GET /api/auth/session
// (always 200: a signed-out visitor is not an error). Pages read
// `session.profile` (null when signed out) after `loadSession()`.
import { auth, type Profile } from '../services/auth';

export type { Profile };

export const session = $state<{ profile: Profile | null; loaded: boolean }>({ profile: null, loaded: false });

let pending: Promise<Profile | null> | null = null;

export function loadSession(): Promise<Profile | null> {
  pending ??= auth.session().then(
    (user) => {
      session.profile = user;
      session.loaded = true;
      return user;
    },
    (e: unknown) => {
      session.profile = null;
      session.loaded = true;
      throw e;
    },
  );
  return pending;
}

// clearLocalData removes what this site keeps in the browser, every key
// under `hackdesk.`: the saved application progress (`hackdesk.apply.v1.`)
// and the exec forms' progress (`hackdesk.onboarding.v1.`). On sign-out,
// nothing of the person stays behind.
export function clearLocalData(): void {
  try {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith('hackdesk.')) localStorage.removeItem(key);
    }
  } catch {
    // storage unavailable: nothing to clear
  }
}

export async function signOut(): Promise<void> {
  clearLocalData();
  try {
    await auth.logout();
  } finally {
    session.profile = null;
    location.assign('/');
  }
}

export function isAdmin(p: Profile | null): boolean {
  return p?.role === 'admin' || p?.role === 'superadmin';
}
export function isSuperadmin(p: Profile | null): boolean {
  return p?.role === 'superadmin';
}
export function isVP(p: Profile | null): boolean {
  return isSuperadmin(p) || p?.exec_role?.position === 'VP' || p?.exec_role?.position === 'President';
}
export function isPresident(p: Profile | null): boolean {
  return isSuperadmin(p) || p?.exec_role?.position === 'President';
}
