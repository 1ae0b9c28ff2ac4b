// The home page's "Your next step": what a signed-in person should do now,
// by the state of their application (inside the current edition's
// application window, or an earlier edition's offer still open) and
// membership and by their role.
import type { Schemas } from '$lib/services/types';
import type { Window } from '$lib/utilities/window';

export type Step =
  | { kind: 'answerOffer'; href: string; deadline: string; hackathon?: string }
  | { kind: 'startApplication'; href: string; closes?: string }
  | { kind: 'continueApplication'; href: string; closes?: string }
  | { kind: 'applicationsOpen'; href: string; name: string; opens: string }
  | { kind: 'applicationSubmitted'; href: string }
  | { kind: 'joinMembership'; href: string; term: string }
  | { kind: 'payDues'; href: string; term: string; dues_cents: number }
  | { kind: 'review'; href: string };

type Application = Pick<Schemas['Application'], 'status' | 'decision' | 'rsvp' | 'rsvp_deadline'>;
type Earlier = Application & { hackathon: { name: string } };
type Membership = { membership: Pick<Schemas['Membership'], 'status'> | null; term: Pick<Schemas['Term'], 'name'> | null; dues_cents: number };

export type Situation = {
  role: Schemas['User']['role'];
  // undefined: not known (still loading or failed): no step is offered for it.
  application?: Application | null;
  // the current edition's application window (undefined: not known, and
  // the application's steps are offered as if it were open)
  window?: Window;
  // the applications of earlier editions (an offer still to answer)
  earlier?: readonly Earlier[];
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
  const w = s.window;
  const open = !w || w.kind === 'open';
  const closes = w?.kind === 'open' && w.closes ? { closes: w.closes } : {};
  // An earlier edition's offer is answered when this edition's
  // application holds none (the RSVP route answers this edition's first).
  const earlier = a && awaitingRsvp(a, s.now) ? undefined : s.earlier?.find((e) => awaitingRsvp(e, s.now));
  if (earlier) {
    steps.push({ kind: 'answerOffer', href: '/apply/submitted', deadline: earlier.rsvp_deadline ?? '', hackathon: earlier.hackathon.name });
  }
  if (a === null) {
    if (open) steps.push({ kind: 'startApplication', href: '/apply', ...closes });
    else if (w?.kind === 'upcoming') steps.push({ kind: 'applicationsOpen', href: '', name: w.name, opens: w.opens });
  } else if (a) {
    if (a.status === 'draft') {
      if (open) steps.push({ kind: 'continueApplication', href: '/apply', ...closes });
    } else if (awaitingRsvp(a, s.now)) steps.push({ kind: 'answerOffer', href: '/apply/submitted', deadline: a.rsvp_deadline ?? '' });
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
