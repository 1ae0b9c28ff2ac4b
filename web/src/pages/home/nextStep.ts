// The home page's "Your next step": what a signed-in person should do now,
// by the state of their application and membership and by their role.
import type { Schemas } from '$lib/services/types';

export type Step =
  | { kind: 'answerOffer'; href: string; deadline: string }
  | { kind: 'startApplication'; href: string }
  | { kind: 'continueApplication'; href: string }
  | { kind: 'applicationSubmitted'; href: string }
  | { kind: 'joinMembership'; href: string; term: string }
  | { kind: 'payDues'; href: string; term: string; dues_cents: number }
  | { kind: 'review'; href: string };

type Application = Pick<Schemas['Application'], 'status' | 'decision' | 'rsvp' | 'rsvp_deadline'>;
type Membership = { membership: Pick<Schemas['Membership'], 'status'> | null; term: Pick<Schemas['Term'], 'name'> | null; dues_cents: number };

export type Situation = {
  role: Schemas['User']['role'];
  // undefined: not known (still loading or failed): no step is offered for it.
  application?: Application | null;
  membership?: Membership;
  now: Date;
};

// awaitingRsvp: an offer not yet answered whose deadline is still ahead.
export function awaitingRsvp(a: Application, now: Date): boolean {
  if (a.status !== 'submitted' || a.decision !== 'offer' || a.rsvp !== null || !a.rsvp_deadline) return false;
  const deadline = Date.parse(a.rsvp_deadline);
  return Number.isFinite(deadline) && deadline > now.getTime();
}

// nextSteps lists the steps, the most pressing first: an offer to answer,
// the application, the term's dues, then reviewing for admins.
export function nextSteps(s: Situation): Step[] {
  const steps: Step[] = [];
  const a = s.application;
  if (a === null) {
    steps.push({ kind: 'startApplication', href: '/apply' });
  } else if (a) {
    if (a.status === 'draft') steps.push({ kind: 'continueApplication', href: '/apply' });
    else if (awaitingRsvp(a, s.now)) steps.push({ kind: 'answerOffer', href: '/apply/submitted', deadline: a.rsvp_deadline ?? '' });
    else steps.push({ kind: 'applicationSubmitted', href: '/apply/submitted' });
  }
  const m = s.membership;
  if (m?.term) {
    if (m.membership === null) steps.push({ kind: 'joinMembership', href: '/events', term: m.term.name });
    else if (m.membership.status === 'unpaid') steps.push({ kind: 'payDues', href: '/events', term: m.term.name, dues_cents: m.dues_cents });
  }
  if (s.role === 'admin' || s.role === 'superadmin') steps.push({ kind: 'review', href: '/review' });
  return steps;
}
