import { describe, expect, it } from 'vitest';
import { memoryStore } from '$lib/utilities/localCopy';
import { emptyValues, type ServerApplication } from './model';
import { clearLocal, keyOf, merge, readLocal, writeLocal, type LocalCopy } from './persist';

const me = '11111111-1111-4111-8111-111111111111';
const other = '22222222-2222-4222-8222-222222222222';

const memory = memoryStore;

function server(over: Partial<ServerApplication> = {}): ServerApplication {
  return {
    id: 'a1',
    profile_id: me,
    hackathon_id: '33333333-3333-4333-8333-333333333333',
    status: 'draft',
    email: 'me@example.com',
    phone: '709 555 0100',
    discord: null,
    tshirt_size: 'M',
    dietary_restrictions: null,
    age: 21,
    country: null,
    gender: null,
    ethnicity: null,
    university: 'Memorial University of Newfoundland',
    program: null,
    year_of_study: null,
    experience_level: null,
    hackathons_attended: null,
    github_url: null,
    linkedin_url: null,
    website_url: null,
    resume_key: null,
    q1_answer: null,
    q2_answer: null,
    team_members: 'ada@example.com',
    team_members_with_names: [{ email: 'ada@example.com', display_name: 'Ada Lovelace' }],
    coc_agreed: false,
    info_share_authorized: false,
    marketing_opt_in: false,
    created_at: '2025-01-01T10:00:00Z',
    updated_at: '2025-01-02T10:00:00.123456Z',
    submitted_at: null,
    decision: null,
    rsvp_deadline: null,
    rsvp: null,
    rsvp_at: null,
    waiver_accepted_at: null,
    checked_in_at: null,
    position_ids: [],
    answers: {},
    ...over,
  };
}

function local(over: Partial<LocalCopy> = {}): LocalCopy {
  const values = { ...emptyValues('me@example.com'), phone: '709 555 0199', discord: 'me_42' };
  return { profileId: me, values, page: 4, resumeName: 'cv.pdf', syncedAt: '2025-01-02T10:00:00.123456Z', ...over };
}

describe('merge', () => {
  it('starts empty with the email and the profile opt-in when there is neither copy', () => {
    const m = merge(null, null, 'me@example.com', true);
    expect(m.source).toBe('empty');
    expect(m.values.email).toBe('me@example.com');
    expect(m.values.marketing_opt_in).toBe(true);
    expect(m.page).toBe(0);
    // a new draft holds no opt-in: the first save sends the box
    expect(m.base.marketing_opt_in).toBe(false);
  });

  it('takes the server copy when there is no local copy', () => {
    const m = merge(null, server(), 'me@example.com', true);
    expect(m.source).toBe('server');
    expect(m.values.phone).toBe('709 555 0100');
    expect(m.values.age).toBe('21');
    expect(m.values.team).toEqual([{ email: 'ada@example.com', name: 'Ada Lovelace' }]);
    expect(m.values.marketing_opt_in).toBe(false);
    expect(m.syncedAt).toBe('2025-01-02T10:00:00.123456Z');
    expect(m.page).toBe(0);
  });

  it('keeps the local copy when the server has not changed since it synced (local newer)', () => {
    const m = merge(local(), server(), 'me@example.com', false);
    expect(m.source).toBe('local');
    expect(m.values.phone).toBe('709 555 0199');
    expect(m.values.discord).toBe('me_42');
    expect(m.page).toBe(4);
    expect(m.resumeName).toBe('cv.pdf');
    // the autosave compares with what the server holds
    expect(m.base.phone).toBe('709 555 0100');
  });

  it('takes the server copy when it changed on another device, keeping this device’s page', () => {
    const m = merge(local(), server({ phone: '709 555 0123', updated_at: '2025-01-03T09:00:00Z' }), 'me@example.com', false);
    expect(m.source).toBe('server');
    expect(m.values.phone).toBe('709 555 0123');
    expect(m.values.discord).toBe('');
    expect(m.page).toBe(4);
    expect(m.syncedAt).toBe('2025-01-03T09:00:00Z');
  });

  it('does not trust clocks: an older-looking server time that differs still wins', () => {
    const m = merge(local(), server({ phone: '709 555 0123', updated_at: '2024-12-31T00:00:00Z' }), 'me@example.com', false);
    expect(m.source).toBe('server');
    expect(m.values.phone).toBe('709 555 0123');
  });

  it('keeps the local copy when the draft was never created', () => {
    const m = merge(local({ syncedAt: null }), null, 'me@example.com', true);
    expect(m.source).toBe('local');
    expect(m.values.phone).toBe('709 555 0199');
    expect(m.syncedAt).toBeNull();
  });

  it('lets a server draft created elsewhere win over a local copy that never synced', () => {
    const m = merge(local({ syncedAt: null }), server(), 'me@example.com', false);
    expect(m.source).toBe('server');
  });
});

describe('local copy', () => {
  it('round-trips through storage under the profile’s key', () => {
    const store = memory();
    writeLocal(store, local());
    expect([...store.data.keys()]).toEqual([keyOf(me)]);
    expect(keyOf(me)).toBe(`hackdesk.apply.v1.${me}`);
    expect(readLocal(store, me)).toEqual(local());
  });

  it('ignores the copy of another profile', () => {
    const store = memory();
    writeLocal(store, local({ profileId: other }));
    expect(readLocal(store, me)).toBeNull();
    // even when it sits under this profile's key
    store.setItem(keyOf(me), JSON.stringify(local({ profileId: other })));
    expect(readLocal(store, me)).toBeNull();
    expect(merge(readLocal(store, me), null, 'me@example.com', false).source).toBe('empty');
  });

  it('restores only the copy of the edition it was typed for', () => {
    const store = memory();
    const thisYear = '7d3c0e1a-1f2b-4c5d-8e9f-0a1b2c3d4e5f';
    const lastYear = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    writeLocal(store, local({ hackathonId: lastYear }));
    expect(readLocal(store, me, thisYear)).toBeNull();
    expect(readLocal(store, me, lastYear)).toEqual(local({ hackathonId: lastYear }));
    // a copy written before editions is taken as the current edition's
    writeLocal(store, local());
    expect(readLocal(store, me, thisYear)).toEqual(local());
  });

  it('ignores unreadable copies and keeps what it can of an older shape', () => {
    const store = memory();
    store.setItem(keyOf(me), '{not json');
    expect(readLocal(store, me)).toBeNull();
    store.setItem(keyOf(me), JSON.stringify({ profileId: me, page: 99, values: { phone: 5, discord: 'x_1', team: [{ email: 'a@b.c' }, 7] } }));
    const copy = readLocal(store, me)!;
    expect(copy.page).toBe(0);
    expect(copy.values.phone).toBe('');
    expect(copy.values.discord).toBe('x_1');
    expect(copy.values.team).toEqual([{ email: 'a@b.c', name: null }]);
    expect(copy.syncedAt).toBeNull();
  });

  it('is cleared', () => {
    const store = memory();
    writeLocal(store, local());
    clearLocal(store, me);
    expect(readLocal(store, me)).toBeNull();
  });

  it('works without storage', () => {
    writeLocal(null, local());
    expect(readLocal(null, me)).toBeNull();
  });
});
