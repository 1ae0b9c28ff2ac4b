// The door's words for a person's state, and the ticket link's parts.
import type { Person } from '$lib/services/checkin';

export type Tone = 'ok' | 'warn' | 'bad' | 'info';

// statusOf is what the door says about a person before the tap.
export function statusOf(p: Person): { tone: Tone; text: string } {
  if (p.checked_in_at) return { tone: 'warn', text: `Already checked in${p.checked_in_by ? ` by ${p.checked_in_by}` : ''}` };
  if (p.rsvp === 'attending') return { tone: 'info', text: 'Attending: ready to check in' };
  if (p.decision === 'waitlist') return { tone: 'warn', text: 'On the waitlist: may come in as a walk-in' };
  if (p.rsvp === 'declined') return { tone: 'bad', text: 'Not attending: declined their offer' };
  if (p.rsvp === 'expired') return { tone: 'bad', text: 'Not attending: their offer expired' };
  return { tone: 'bad', text: 'Not attending' };
}

// fromLocation reads /checkin/<id>?sig= (a ticket opened by a phone's
// camera app): the id and the signature, or nulls.
export function fromLocation(path: string, search: string): { id: string | null; sig: string | null } {
  const m = /^\/checkin\/([0-9a-fA-F-]{36})$/.exec(path);
  return { id: m?.[1] ?? null, sig: m ? new URLSearchParams(search).get('sig') : null };
}

// fromScan reads a scanned QR's text: a ticket URL of this site.
export function fromScan(text: string, origin: string): { id: string; sig: string | null } | null {
  try {
    const u = new URL(text, origin);
    const r = fromLocation(u.pathname, u.search);
    return r.id ? { id: r.id, sig: r.sig } : null;
  } catch {
    return null;
  }
}

// clock is a check-in time as the door shows it.
export function clock(at: string): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

// tapID is a fresh version-4 UUID for one tap (crypto.randomUUID needs a
// secure context; getRandomValues does not).
export function tapID(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
