import { describe, expect, it } from 'vitest';
import { onboarding as t } from '$lib/i18n/onboarding';
import { bodyOf, checkValues, emptyValues, headshotProblem, kindOf, sameValues } from './model';

describe('kindOf', () => {
  it('reads the form from the path', () => {
    expect(kindOf('/onboarding')).toBe('onboarding');
    expect(kindOf('/onboarding/')).toBe('onboarding');
    expect(kindOf('/onboarding/returning')).toBe('returning');
    expect(kindOf('/onboarding/returning/')).toBe('returning');
  });
});

describe('bodyOf', () => {
  const v = { ...emptyValues(' Ada ', ' ada@x.test '), role: 'VP', term_type: 'fall', ds_competency: 'none', chat_handle: ' ada ' };
  it('trims the answers and leaves the headshot out without a key', () => {
    expect(bodyOf(v, null)).toEqual({
      display_name: 'Ada',
      email: 'ada@x.test',
      role: 'VP',
      term_type: 'fall',
      chat_handle: 'ada',
      photo_handle: '',
      ds_competency: 'none',
    });
  });
  it('sends a new key with the consent box', () => {
    const b = bodyOf({ ...v, consent: true }, 'headshots/t/onboarding/p.png');
    expect(b.headshot_key).toBe('headshots/t/onboarding/p.png');
    expect(b.headshot_consent).toBe(true);
    expect(bodyOf(v, 'k').headshot_consent).toBe(false);
  });
  it('keeps a stored headshot with consent', () => {
    const b = bodyOf({ ...v, consent: true }, null);
    expect('headshot_key' in b).toBe(false);
    expect(b.headshot_consent).toBe(true);
  });
});

describe('headshotProblem', () => {
  const mb = 1024 * 1024;
  it('accepts JPEG and PNG up to 5 MB', () => {
    expect(headshotProblem({ name: 'me.JPG', type: 'image/jpeg', size: 100 })).toBeNull();
    expect(headshotProblem({ name: 'me.jpeg', type: '', size: 100 })).toBeNull();
    expect(headshotProblem({ name: 'me.png', type: 'image/png', size: 5 * mb })).toBeNull();
  });
  it('refuses other types, empty and large files', () => {
    expect(headshotProblem({ name: 'me.gif', type: 'image/gif', size: 100 })).toBe('wrongType');
    expect(headshotProblem({ name: 'me.png', type: 'application/pdf', size: 100 })).toBe('wrongType');
    expect(headshotProblem({ name: 'me', type: '', size: 100 })).toBe('wrongType');
    expect(headshotProblem({ name: 'me.png', type: 'image/png', size: 0 })).toBe('empty');
    expect(headshotProblem({ name: 'me.png', type: 'image/png', size: 5 * mb + 1 })).toBe('tooLarge');
  });
});

describe('sameValues', () => {
  it('compares every answer', () => {
    const a = emptyValues('Ada', 'a@x.test');
    expect(sameValues(a, { ...a })).toBe(true);
    expect(sameValues(a, { ...a, consent: true })).toBe(false);
    expect(sameValues(a, { ...a, role: 'VP' })).toBe(false);
  });
});

describe('checkValues', () => {
  const done = { ...emptyValues('Ada', 'ada@x.test'), role: 'VP', term_type: 'fall', ds_competency: 'none' };
  const noPhoto = { error: '', pending: false, held: false };
  it('asks for every choice and a well-formed email', () => {
    expect(checkValues(done, noPhoto)).toEqual({});
    const got = checkValues({ ...emptyValues('Ada', 'ada@'), role: '' }, noPhoto);
    expect(got).toMatchObject({ email: t.emailFormat, role: t.required.role, term_type: t.required.term_type, ds_competency: t.required.ds_competency });
  });
  it('asks for consent to a photo picked or kept', () => {
    expect(checkValues(done, { ...noPhoto, pending: true }).consent).toBe(t.headshot.consentNeeded);
    expect(checkValues(done, { ...noPhoto, held: true }).consent).toBe(t.headshot.consentKeep);
    expect(checkValues({ ...done, consent: true }, { ...noPhoto, held: true })).toEqual({});
    expect(checkValues(done, { ...noPhoto, error: 'too big' }).headshot).toBe('too big');
  });
});
