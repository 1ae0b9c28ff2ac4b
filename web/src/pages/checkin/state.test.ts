import { describe, expect, it } from 'vitest';
import { fromLocation, fromScan, statusOf, tapID } from './state';

import type { Person } from '$lib/services/checkin';

const base: Person = { id: 'x', name: 'Ada', email: 'a@x', tshirt_size: 'M', dietary_restrictions: null, team: [], decision: 'offer', rsvp: 'attending', checked_in_at: null, checked_in_by: null };

describe('the door', () => {
  it('reads a ticket link', () => {
    const id = '0b6f6a5e-5f7c-4d3e-9a1b-2c3d4e5f6a7b';
    expect(fromLocation(`/checkin/${id}`, '?sig=abc')).toEqual({ id, sig: 'abc' });
    expect(fromLocation('/checkin', '')).toEqual({ id: null, sig: null });
    expect(fromScan(`https://h.test/checkin/${id}?sig=s`, 'https://h.test')).toEqual({ id, sig: 's' });
    expect(fromScan('not a link at all %%', 'https://h.test')).toBeNull();
  });
  it('says the state in words', () => {
    expect(statusOf(base).tone).toBe('info');
    expect(statusOf({ ...base, checked_in_at: '2026-01-01T00:00:00Z', checked_in_by: 'Bo' }).text).toBe('Already checked in by Bo');
    expect(statusOf({ ...base, rsvp: 'declined' }).tone).toBe('bad');
    expect(statusOf({ ...base, rsvp: null, decision: 'waitlist' }).text).toMatch(/walk-in/);
  });
});

describe('a tap', () => {
  it('has a version-4 UUID', () => {
    expect(tapID()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tapID()).not.toBe(tapID());
  });
});
