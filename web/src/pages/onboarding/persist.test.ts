import { describe, expect, it } from 'vitest';
import { memoryStore } from '$lib/utilities/localCopy';
import { emptyValues, type Submission } from './model';
import { clearLocal, keyOf, readLocal, start, writeLocal, type LocalCopy } from './persist';

const memory = memoryStore;

const submission: Submission = {
  id: 's',
  term_id: 't',
  profile_id: 'p',
  kind: 'onboarding',
  display_name: 'Stored',
  email: 'stored@x.test',
  role: 'VP',
  term_type: 'fall',
  headshot_key: 'headshots/t/onboarding/p.png',
  headshot_consent: true,
  chat_handle: 'chat',
  photo_handle: 'photo',
  ds_competency: 'advanced',
  submitted_at: '2026-09-01T10:00:00Z',
  updated_at: '2026-09-02T10:00:00Z',
};

const copy = (syncedAt: string | null): LocalCopy => ({
  profileId: 'p',
  values: { ...emptyValues('Typed', 'typed@x.test'), role: 'Exec' },
  headshotKey: 'k',
  headshotName: 'me.png',
  syncedAt,
});

describe('local copy', () => {
  it('round-trips per kind and profile, and clears', () => {
    const s = memory();
    writeLocal(s, 'onboarding', copy(null));
    expect(s.data.has('hackdesk.onboarding.v1.onboarding.p')).toBe(true);
    expect(keyOf('returning', 'p')).toBe('hackdesk.onboarding.v1.returning.p');
    expect(readLocal(s, 'onboarding', 'p')).toEqual(copy(null));
    expect(readLocal(s, 'returning', 'p')).toBeNull();
    expect(readLocal(s, 'onboarding', 'q')).toBeNull();
    clearLocal(s, 'onboarding', 'p');
    expect(readLocal(s, 'onboarding', 'p')).toBeNull();
  });
  it('ignores a broken or foreign copy and fields of the wrong type', () => {
    const s = memory();
    s.setItem(keyOf('onboarding', 'p'), '{not json');
    expect(readLocal(s, 'onboarding', 'p')).toBeNull();
    s.setItem(keyOf('onboarding', 'p'), JSON.stringify({ ...copy(null), profileId: 'q' }));
    expect(readLocal(s, 'onboarding', 'p')).toBeNull();
    s.setItem(keyOf('onboarding', 'p'), JSON.stringify({ profileId: 'p', values: { role: 7, consent: 'yes', email: 'e' }, headshotKey: 3 }));
    const got = readLocal(s, 'onboarding', 'p');
    expect(got?.values.role).toBe('');
    expect(got?.values.consent).toBe(false);
    expect(got?.values.email).toBe('e');
    expect(got?.headshotKey).toBeNull();
  });
});

describe('start', () => {
  it('starts a new form from the profile', () => {
    const s = start(null, null, 'Ada', 'ada@x.test');
    expect(s.source).toBe('empty');
    expect(s.values.display_name).toBe('Ada');
    expect(s.values.email).toBe('ada@x.test');
  });
  it('restores the local copy when the server holds nothing newer', () => {
    expect(start(copy(null), null, 'Ada', 'a').source).toBe('local');
    const s = start(copy(submission.updated_at), submission, 'Ada', 'a');
    expect(s.source).toBe('local');
    expect(s.values.display_name).toBe('Typed');
    expect(s.headshotKey).toBe('k');
  });
  it('takes a submission changed since the copy was made', () => {
    const s = start(copy('2026-09-01T00:00:00Z'), submission, 'Ada', 'a');
    expect(s.source).toBe('server');
    expect(s.values.display_name).toBe('Stored');
    expect(s.values.consent).toBe(true);
    expect(s.syncedAt).toBe(submission.updated_at);
    expect(start(copy(null), submission, 'Ada', 'a').source).toBe('server');
  });
});
