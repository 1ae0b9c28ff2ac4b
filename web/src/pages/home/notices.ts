// The notices the home page shows from its query: a fixed set of codes,
// each with the ids it needs (the server's web/notice.go holds the same
// set), worded by the catalogue and by what the API says about those ids.
// Anything else shows nothing: a link never makes the site print words of
// its choosing.
import { home } from '$lib/i18n/home';
import type { ServiceError } from '$lib/services/errors';
import type { Kind } from '$lib/services/onboarding';

export type NoticeRef = { code: 'form-closed'; form: Kind; term: string };

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// noticeOf reads `?notice=` and its ids; null unless the code is known
// and its ids are well formed.
export function noticeOf(search: string): NoticeRef | null {
  const q = new URLSearchParams(search);
  if (q.get('notice') === 'form-closed') {
    const form = q.get('form');
    const term = q.get('term') ?? '';
    if ((form === 'onboarding' || form === 'returning') && uuid.test(term)) return { code: 'form-closed', form, term };
  }
  return null;
}

// Forms is what a form-closed notice asks: the caller's form of a term
// (the onboarding service's form), refused with reason "formClosed" and
// the window's words while it is closed.
export type Forms = { form: (kind: Kind, termId?: string) => Promise<unknown> };

// noticeText words a notice: for a closed form, the API's words for that
// form and term ("Onboarding for 2026-2027 opens …"), else the
// catalogue's; nothing once the form is open again.
export async function noticeText(ref: NoticeRef, forms: Forms): Promise<string | null> {
  try {
    await forms.form(ref.form, ref.term);
    return null;
  } catch (e) {
    const err = e as Partial<ServiceError>;
    if (err.reason === 'formClosed' && err.detail) return err.detail;
    return home.notices.formClosed[ref.form];
  }
}
