// Which offers the applicant may still answer: an offer not expired whose
// RSVP deadline is ahead (answered or not: the answer may change until
// then). POST /api/applications/rsvp answers the current edition's such
// offer first, so an earlier edition's is offered only when the current
// edition holds none, and only the first (latest edition) of them.
import type { EarlierApplication } from '$lib/services/applications';

type Offer = { decision: string | null; rsvp: string | null; rsvp_deadline: string | null };

export function offerOpen(a: Offer | null | undefined, now: Date): boolean {
  if (!a || a.decision !== 'offer' || a.rsvp === 'expired' || !a.rsvp_deadline) return false;
  const deadline = Date.parse(a.rsvp_deadline);
  return Number.isFinite(deadline) && deadline > now.getTime();
}

// earlierOffer is the earlier edition's application whose offer the RSVP
// form answers, or null.
export function earlierOffer(current: Offer | null, earlier: readonly EarlierApplication[], now: Date): EarlierApplication | null {
  if (offerOpen(current, now)) return null;
  return earlier.find((a) => offerOpen(a, now)) ?? null;
}
