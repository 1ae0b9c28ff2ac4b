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
  | { kind: 'review'; href: string }
  | { kind: 'hiring'; href: string }
  | { kind: 'selections'; href: string }
  | { kind: 'onboarding'; href: string; term: string; closes: string | null };

type Application = Pick<Schemas['Application'], 'status' | 'decision' | 'rsvp' | 'rsvp_deadline'>;
type Earlier = Application & { hackathon: { name: string } };
type Membership = { membership: Pick<Schemas['Membership'], 'status'> | null; term: Pick<Schemas['Term'], 'name'> | null; dues_cents: number };

// Work is what a person's exec role asks of them: the onboarding form of
// their role's term (while open and not sent) and the hiring pages.
export type Work = {
  position: string | null; // the exec position held: President, VP or Exec
  onboarding: { term_name: string; open: boolean; submitted: boolean; closes_at: string | null } | null;
};

export type Situation = {
  role: Schemas['User']['role'];
  work?: Work;
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

// nextSteps lists the steps, the most pressing first. For staff (admins
// and exec role holders) their work comes first: the onboarding form while
// it is open and not sent, an offer to answer, then reviewing, hiring or
// selections; an application they have not started is not offered to them
// (they apply from the Apply link when they mean to). For everyone else:
// an offer to answer, the application, then the term's dues.
export function nextSteps(s: Situation): Step[] {
  const admin = s.role === 'admin' || s.role === 'superadmin';
  const position = s.work?.position ?? null;
  const staff = admin || position !== null;
  const work: Step[] = [];
  const o = s.work?.onboarding;
  if (o && o.open && !o.submitted) work.push({ kind: 'onboarding', href: '/onboarding', term: o.term_name, closes: o.closes_at });
  const a = s.application;
  const w = s.window;
  const open = !w || w.kind === 'open';
  const closes = w?.kind === 'open' && w.closes ? { closes: w.closes } : {};
  const offer = a && a.status !== 'draft' && awaitingRsvp(a, s.now);
  if (offer) work.push({ kind: 'answerOffer', href: '/apply/submitted', deadline: a.rsvp_deadline ?? '' });
  // An earlier edition's offer is answered when this edition's
  // application holds none (the RSVP route answers this edition's first).
  const earlier = offer ? undefined : s.earlier?.find((e) => awaitingRsvp(e, s.now));
  if (earlier) {
    work.push({ kind: 'answerOffer', href: '/apply/submitted', deadline: earlier.rsvp_deadline ?? '', hackathon: earlier.hackathon.name });
  }
  if (admin) work.push({ kind: 'review', href: '/review' });
  if (s.role === 'superadmin' || position === 'President') work.push({ kind: 'hiring', href: '/admin/applications/hiring' });
  else if (position === 'VP') work.push({ kind: 'selections', href: '/admin/applications/review' });

  const steps: Step[] = staff ? work : work.filter((x) => x.kind === 'onboarding' || x.kind === 'answerOffer');
  if (a === null && !staff) {
    // (staff apply from the Apply link when they mean to)
    if (open) steps.push({ kind: 'startApplication', href: '/apply', ...closes });
    else if (w?.kind === 'upcoming') steps.push({ kind: 'applicationsOpen', href: '', name: w.name, opens: w.opens });
  } else if (a && !offer) {
    if (a.status === 'draft') {
      if (open) steps.push({ kind: 'continueApplication', href: '/apply', ...closes });
    } else steps.push({ kind: 'applicationSubmitted', href: '/apply/submitted' });
  }
  const m = s.membership;
  if (m?.term) {
    if (m.membership === null) steps.push({ kind: 'joinMembership', href: '/events', term: m.term.name });
    else if (m.membership.status === 'unpaid') steps.push({ kind: 'payDues', href: '/events', term: m.term.name, dues_cents: m.dues_cents });
  }
  return steps;
}
