import { describe, expect, it } from 'vitest';
import { ServiceError } from '$lib/services/errors';
import { home } from '$lib/i18n/home';
import { noticeOf, noticeText } from './notices';

const term = '3f1c2b9e-8d4a-4c6b-9a51-0e2d7f6a1b23';

describe('noticeOf', () => {
  it('reads a known code with its ids', () => {
    expect(noticeOf(`?notice=form-closed&form=onboarding&term=${term}`)).toEqual({ code: 'form-closed', form: 'onboarding', term });
    expect(noticeOf(`?form=returning&notice=form-closed&term=${term.toUpperCase()}`)).toEqual({
      code: 'form-closed',
      form: 'returning',
      term: term.toUpperCase(),
    });
  });
  it('shows nothing for anything else', () => {
    for (const q of [
      '',
      '?notice=Onboarding%20for%20Fall%202025%20opens%20September%201',
      '?notice=%3Cb%3EYour%20account%20is%20locked%3C%2Fb%3E',
      '?notice=form-closed',
      `?notice=form-closed&form=onboarding`,
      `?notice=form-closed&form=admin&term=${term}`,
      `?notice=form-closed&form=onboarding&term=${term}x`,
      `?notice=form-closed&form=onboarding&term=javascript:alert(1)`,
      `?notice=FORM-CLOSED&form=onboarding&term=${term}`,
    ]) {
      expect(noticeOf(q), q).toBeNull();
    }
  });
});

describe('noticeText', () => {
  const ref = { code: 'form-closed', form: 'onboarding', term } as const;
  it('words a closed form as the API does', async () => {
    const closed = { form: () => Promise.reject(new ServiceError(403, 'Form closed', 'Onboarding for 2026-2027 opens 2 August 2026 12:00 UTC')) };
    expect(await noticeText(ref, closed)).toBe('Onboarding for 2026-2027 opens 2 August 2026 12:00 UTC');
  });
  it('falls back to the catalogue, and says nothing once the form is open', async () => {
    const offline = { form: () => Promise.reject(new ServiceError(0, 'Offline')) };
    expect(await noticeText(ref, offline)).toBe(home.notices.formClosed.onboarding);
    const forbidden = { form: () => Promise.reject(new ServiceError(403, 'Forbidden', 'anything at all')) };
    expect(await noticeText({ ...ref, form: 'returning' }, forbidden)).toBe(home.notices.formClosed.returning);
    expect(await noticeText(ref, { form: () => Promise.resolve({}) })).toBeNull();
  });
});
