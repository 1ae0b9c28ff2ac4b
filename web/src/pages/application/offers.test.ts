import { describe, expect, it } from 'vitest';
import type { EarlierApplication } from '$lib/services/applications';
import { earlierOffer, offerOpen } from './offers';

const now = new Date('2027-03-01T12:00:00Z');
const ahead = '2027-03-05T12:00:00Z';
const past = '2027-02-20T12:00:00Z';

function earlier(over: Partial<EarlierApplication>): EarlierApplication {
  return {
    id: 'e1',
    hackathon: { id: 'h1', name: 'HackMUN 2026' },
    status: 'submitted',
    decision: 'offer',
    rsvp: null,
    rsvp_deadline: ahead,
    submitted_at: '2026-01-20T12:00:00Z',
    ...over,
  };
}

describe('offers still to answer', () => {
  it('is an offer, not expired, deadline ahead, answered or not', () => {
    expect(offerOpen(earlier({}), now)).toBe(true);
    expect(offerOpen(earlier({ rsvp: 'attending' }), now)).toBe(true);
    expect(offerOpen(earlier({ rsvp: 'expired' }), now)).toBe(false);
    expect(offerOpen(earlier({ rsvp_deadline: past }), now)).toBe(false);
    expect(offerOpen(earlier({ decision: 'waitlist', rsvp_deadline: null }), now)).toBe(false);
    expect(offerOpen(null, now)).toBe(false);
  });
  it('offers an earlier edition’s only when the current holds none, the latest first', () => {
    const list = [earlier({ id: 'e1', decision: 'reject', rsvp_deadline: null }), earlier({ id: 'e2' }), earlier({ id: 'e3' })];
    expect(earlierOffer(null, list, now)?.id).toBe('e2');
    expect(earlierOffer({ decision: null, rsvp: null, rsvp_deadline: null }, list, now)?.id).toBe('e2');
    expect(earlierOffer({ decision: 'offer', rsvp: null, rsvp_deadline: ahead }, list, now)).toBeNull();
    expect(earlierOffer(null, [list[0]!], now)).toBeNull();
  });
});
