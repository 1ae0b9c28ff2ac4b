import { describe, expect, it } from 'vitest';
import type { Hackathon } from '../services/hackathons';
import { fromNow } from './format';
import { windowOf } from './window';

const edition = (over: Partial<Hackathon>): Hackathon => ({
  id: '0b6f1c5e-8a55-4f0b-9b7d-2a3c4d5e6f70',
  name: 'HackMUN 2027',
  applications_open_at: '2027-01-10T12:00:00Z',
  applications_close_at: '2027-02-10T17:00:00Z',
  starts_at: null,
  ends_at: null,
  capacity: null,
  phase: 'open',
  ...over,
});

describe('windowOf', () => {
  it('before the opening: when it opens', () => {
    expect(windowOf(edition({ phase: 'upcoming' }))).toEqual({ kind: 'upcoming', name: 'HackMUN 2027', opens: '2027-01-10T12:00:00Z' });
  });
  it('open: until its close, or for good', () => {
    expect(windowOf(edition({}))).toEqual({ kind: 'open', name: 'HackMUN 2027', closes: '2027-02-10T17:00:00Z' });
    expect(windowOf(edition({ applications_close_at: null }))).toEqual({ kind: 'open', name: 'HackMUN 2027', closes: null });
  });
  it('after the close, whether the event has started or ended', () => {
    for (const phase of ['closed', 'running', 'over'] as const) {
      expect(windowOf(edition({ phase }))).toEqual({ kind: 'closed', name: 'HackMUN 2027', closed: '2027-02-10T17:00:00Z' });
    }
  });
});

describe('fromNow', () => {
  const now = new Date('2027-02-08T17:00:00Z');
  it('says days, hours or minutes ahead', () => {
    expect(fromNow('2027-02-10T17:00:00Z', now)).toBe('in 2 days');
    expect(fromNow('2027-02-08T22:00:00Z', now)).toBe('in 5 hours');
    expect(fromNow('2027-02-08T17:30:00Z', now)).toBe('in 30 minutes');
  });
});
