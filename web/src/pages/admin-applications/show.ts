// How the table and the details show scores and decisions.
import { adminApplications } from '$lib/i18n/admin-applications';
import { number } from '$lib/utilities/format';

const t = adminApplications;

// score is a mean raw total (0–15), at most two decimals; "" when null.
export function score(n: number | null | undefined): string {
  return number(n, { maximumFractionDigits: 2 });
}

// zScore is a normalized score with its sign and two decimals; "" when null.
export function zScore(n: number | null | undefined): string {
  return number(n, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
}

// decisionText is the decision and the RSVP in words ("Offer, attending").
export function decisionText(decision: string | null | undefined, rsvp: string | null | undefined): string {
  if (!decision) return t.undecided;
  const d = t.decision[decision] ?? decision;
  return t.decisionWithRsvp(d, rsvp ? (t.rsvp[rsvp] ?? rsvp) : null, t.awaiting);
}
