import { describe, expect, it } from 'vitest';
import { awaitingRsvp, nextSteps, type Situation } from './nextStep';

const now = new Date('2025-03-01T12:00:00Z');
const draft = { status: 'draft', decision: null, rsvp: null, rsvp_deadline: null } as const;
const submitted = { status: 'submitted', decision: null, rsvp: null, rsvp_deadline: null } as const;
const offer = { status: 'submitted', decision: 'offer', rsvp: null, rsvp_deadline: '2025-03-05T23:59:00Z' } as const;
const term = { name: 'Winter 2025' };
const kinds = (s: Situation) => nextSteps(s).map((x) => x.kind);

describe('nextSteps', () => {
  it('starts an application when there is none', () => {
    expect(kinds({ role: 'member', application: null, now })).toEqual(['startApplication']);
  });
  it('continues a draft', () => {
    expect(nextSteps({ role: 'member', application: draft, now })).toEqual([{ kind: 'continueApplication', href: '/apply' }]);
  });
  it('points a submitted application to its status page', () => {
    expect(nextSteps({ role: 'member', application: submitted, now })).toEqual([{ kind: 'applicationSubmitted', href: '/apply/submitted' }]);
  });
  it('asks to answer an offer before its deadline', () => {
    expect(nextSteps({ role: 'member', application: offer, now })).toEqual([
      { kind: 'answerOffer', href: '/apply/submitted', deadline: '2025-03-05T23:59:00Z' },
    ]);
  });
  it('does not ask again once answered or past the deadline', () => {
    expect(kinds({ role: 'member', application: { ...offer, rsvp: 'attending' }, now })).toEqual(['applicationSubmitted']);
    expect(kinds({ role: 'member', application: offer, now: new Date('2025-03-06T00:00:00Z') })).toEqual(['applicationSubmitted']);
    expect(kinds({ role: 'member', application: { ...offer, decision: 'waitlist' }, now })).toEqual(['applicationSubmitted']);
  });
  it('follows the current edition’s application window', () => {
    const open = { kind: 'open', name: 'HackMUN', closes: '2025-03-03T17:00:00Z' } as const;
    expect(nextSteps({ role: 'member', application: null, window: open, now })).toEqual([
      { kind: 'startApplication', href: '/apply', closes: '2025-03-03T17:00:00Z' },
    ]);
    expect(nextSteps({ role: 'member', application: draft, window: { ...open, closes: null }, now })).toEqual([{ kind: 'continueApplication', href: '/apply' }]);
    expect(nextSteps({ role: 'member', application: null, window: { kind: 'upcoming', name: 'HackMUN', opens: '2025-04-01T12:00:00Z' }, now })).toEqual([
      { kind: 'applicationsOpen', href: '', name: 'HackMUN', opens: '2025-04-01T12:00:00Z' },
    ]);
    const closed = { kind: 'closed', name: 'HackMUN', closed: '2025-02-01T12:00:00Z' } as const;
    expect(kinds({ role: 'member', application: null, window: closed, now })).toEqual([]);
    expect(kinds({ role: 'member', application: draft, window: closed, now })).toEqual([]);
    expect(kinds({ role: 'member', application: offer, window: closed, now })).toEqual(['answerOffer']);
  });
  it('asks to answer an earlier edition’s offer while this edition’s holds none', () => {
    const earlier = [{ ...offer, hackathon: { name: 'HackMUN 2024' } }];
    expect(nextSteps({ role: 'member', application: null, earlier, now })).toEqual([
      { kind: 'answerOffer', href: '/apply/submitted', deadline: '2025-03-05T23:59:00Z', hackathon: 'HackMUN 2024' },
      { kind: 'startApplication', href: '/apply' },
    ]);
    expect(kinds({ role: 'member', application: offer, earlier, now })).toEqual(['answerOffer']);
    expect(kinds({ role: 'member', application: null, earlier: [{ ...earlier[0]!, rsvp: 'declined' }], now })).toEqual(['startApplication']);
  });
  it('offers nothing for an application it does not know', () => {
    expect(kinds({ role: 'member', now })).toEqual([]);
  });
  it('asks to join, then to pay, the active term', () => {
    expect(nextSteps({ role: 'member', membership: { membership: null, term, dues_cents: 1000 }, now })).toEqual([
      { kind: 'joinMembership', href: '/events', term: 'Winter 2025' },
    ]);
    expect(nextSteps({ role: 'member', membership: { membership: { status: 'unpaid' }, term, dues_cents: 1000 }, now })).toEqual([
      { kind: 'payDues', href: '/events', term: 'Winter 2025', dues_cents: 1000 },
    ]);
    expect(kinds({ role: 'member', membership: { membership: { status: 'paid' }, term, dues_cents: 1000 }, now })).toEqual([]);
    expect(kinds({ role: 'member', membership: { membership: null, term: null, dues_cents: 1000 }, now })).toEqual([]);
  });
  it('puts the work of staff first and offers them no new application', () => {
    expect(kinds({ role: 'admin', application: offer, membership: { membership: null, term, dues_cents: 1 }, now })).toEqual([
      'answerOffer',
      'review',
      'joinMembership',
    ]);
    expect(kinds({ role: 'admin', application: null, now })).toEqual(['review']);
    expect(kinds({ role: 'superadmin', now })).toEqual(['review', 'hiring']);
    expect(kinds({ role: 'member', now })).toEqual([]);
    expect(kinds({ role: 'admin', application: null, work: { position: 'VP', onboarding: null }, now })).toEqual(['review', 'selections']);
    expect(kinds({ role: 'admin', application: submitted, work: { position: 'President', onboarding: null }, now })).toEqual([
      'review',
      'hiring',
      'applicationSubmitted',
    ]);
  });
  it('offers the onboarding form first while it is open and not sent', () => {
    const form = { term_name: '2026-2027', open: true, submitted: false, closes_at: '2026-09-10T00:00:00Z' };
    expect(nextSteps({ role: 'admin', application: null, work: { position: 'Exec', onboarding: form }, now })[0]).toEqual({
      kind: 'onboarding',
      href: '/onboarding',
      term: '2026-2027',
      closes: '2026-09-10T00:00:00Z',
    });
    expect(kinds({ role: 'admin', application: null, work: { position: 'Exec', onboarding: { ...form, submitted: true } }, now })).toEqual(['review']);
    expect(kinds({ role: 'admin', application: null, work: { position: 'Exec', onboarding: { ...form, open: false } }, now })).toEqual(['review']);
  });
});

describe('awaitingRsvp', () => {
  it('needs a parseable deadline ahead', () => {
    expect(awaitingRsvp({ ...offer, rsvp_deadline: 'soon' }, now)).toBe(false);
    expect(awaitingRsvp({ ...offer, rsvp_deadline: null }, now)).toBe(false);
    expect(awaitingRsvp(offer, now)).toBe(true);
  });
});
