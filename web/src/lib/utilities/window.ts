// The current edition's application window as the applicant pages show
// it: before it opens (when), after it closed (when), or open (until
// when, if it closes). The server's phase decides which; the dates are
// the reader's (Intl, their zone).
import type { Hackathon } from '../services/hackathons';
import { dateTime } from './format';

export type Window =
  | { kind: 'upcoming'; name: string; opens: string }
  | { kind: 'closed'; name: string; closed: string }
  | { kind: 'open'; name: string; closes: string | null };

export function windowOf(h: Hackathon): Window {
  switch (h.phase) {
    case 'upcoming':
      return { kind: 'upcoming', name: h.name, opens: h.applications_open_at };
    case 'open':
      return { kind: 'open', name: h.name, closes: h.applications_close_at };
    default:
      // closed, running, over: after a close (a window without one is
      // open for good).
      return { kind: 'closed', name: h.name, closed: h.applications_close_at ?? h.applications_open_at };
  }
}

// windowDate is a window's date as the pages give it: the day and the
// time, in the reader's zone.
export function windowDate(iso: string): string {
  return dateTime(iso, { dateStyle: 'long', timeStyle: 'short' });
}
