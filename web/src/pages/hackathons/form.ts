// The edition form's rules: the name, the application window and the
// event's dates typed in the reader's zone as "YYYY-MM-DD HH:MM" and sent
// as RFC 3339, the capacity, and the announcement; the checks the server
// makes (a name of 1 to 100 characters, an opening, the dates that are
// set in order: open < close <= starts < ends, a capacity from 1 to
// 100,000, and on creation a close still ahead), the body of a create or
// of an edit, and the server's refusals by field.
import { schemaHackathonBody } from '$lib/rules.gen';
import type { AdminHackathon, HackathonBody as Body } from '$lib/services/hackathons';
import { localInput, parseLocal } from '$lib/utilities/localTime';

export type { AdminHackathon, Body };
export const timeFields = ['applications_open_at', 'applications_close_at', 'starts_at', 'ends_at'] as const;
export type TimeField = (typeof timeFields)[number];
export const fields = ['name', ...timeFields, 'capacity', 'announce'] as const;
export type Field = (typeof fields)[number];
export type Values = Record<Exclude<Field, 'announce'>, string> & { announce: boolean };
export type Problems = Partial<Record<Field, string>>;

const maxName = schemaHackathonBody.name.maxLength;
const maxCapacity = schemaHackathonBody.capacity.maximum;

export function valuesOf(h: AdminHackathon | null): Values {
  return {
    name: h?.name ?? '',
    applications_open_at: localInput(h?.applications_open_at),
    applications_close_at: localInput(h?.applications_close_at),
    starts_at: localInput(h?.starts_at),
    ends_at: localInput(h?.ends_at),
    capacity: h?.capacity == null ? '' : String(h.capacity),
    announce: h?.announce ?? false,
  };
}

export type Words = {
  nameRequired: string;
  nameTooLong: (max: number) => string;
  opensRequired: string;
  timeInvalid: (field: TimeField) => string;
  order: (later: TimeField, earlier: TimeField) => string;
  closePast: string;
  capacityInvalid: (max: number) => string;
};

// capacityOf reads the capacity: null when blank, NaN when not a whole
// number.
function capacityOf(s: string): number | null {
  const t = s.trim();
  if (t === '') return null;
  return /^\d+$/.test(t) ? Number(t) : Number.NaN;
}

// orderProblems names the later field of each pair of set dates out of
// order (only the event may start the moment applications close), as the
// server does; `at` reads a field's instant (null when unset).
export function orderProblems(at: (f: TimeField) => string | null, w: Pick<Words, 'order'>): Problems {
  const out: Problems = {};
  timeFields.forEach((later, i) => {
    const l = at(later);
    if (l === null || out[later]) return;
    for (const earlier of timeFields.slice(0, i)) {
      const e = at(earlier);
      if (e === null) continue;
      const mayEqual = later === 'starts_at' && earlier === 'applications_close_at';
      const lt = new Date(l).getTime();
      const et = new Date(e).getTime();
      if (lt < et || (!mayEqual && lt === et)) {
        out[later] = w.order(later, earlier);
        return;
      }
    }
  });
  return out;
}

// checkEdition checks the form before it is sent; `creating` adds the
// creation's rule that the close is still ahead of now.
export function checkEdition(v: Values, w: Words, creating: boolean, now: Date): Problems {
  const out: Problems = {};
  const name = v.name.trim();
  if (name === '') out.name = w.nameRequired;
  else if ([...name].length > maxName) out.name = w.nameTooLong(maxName);
  if (v.applications_open_at.trim() === '') out.applications_open_at = w.opensRequired;
  for (const f of timeFields) {
    if (!out[f] && v[f].trim() !== '' && parseLocal(v[f]) === null) out[f] = w.timeInvalid(f);
  }
  const c = capacityOf(v.capacity);
  if (c !== null && (Number.isNaN(c) || c < 1 || c > maxCapacity)) out.capacity = w.capacityInvalid(maxCapacity);
  const order = orderProblems((f) => (out[f] || v[f].trim() === '' ? null : parseLocal(v[f])), w);
  for (const f of timeFields) if (!out[f] && order[f]) out[f] = order[f];
  const close = parseLocal(v.applications_close_at);
  if (creating && !out.applications_close_at && close && new Date(close).getTime() <= now.getTime()) out.applications_close_at = w.closePast;
  return out;
}

// bodyFor is the body that creates an edition from v, or, given the
// edition as it is, the body that changes only what differs (a cleared
// date or capacity is null); null when nothing changes.
export function bodyFor(v: Values, was: AdminHackathon | null): Body | null {
  const body: Body = {};
  const before = valuesOf(was);
  if (!was || v.name.trim() !== before.name) body.name = v.name.trim();
  for (const f of timeFields) {
    const typed = v[f].trim();
    if (was && typed === before[f]) continue;
    const now = typed === '' ? null : parseLocal(typed);
    if (f === 'applications_open_at') {
      if (now) body.applications_open_at = now;
    } else if (!was) {
      if (now) body[f] = now;
    } else {
      body[f] = now;
    }
  }
  if (!was || v.capacity.trim() !== before.capacity) {
    const c = capacityOf(v.capacity);
    if (was || c !== null) body.capacity = c;
  }
  if (!was ? v.announce : v.announce !== before.announce) body.announce = v.announce;
  return Object.keys(body).length > 0 ? body : null;
}

// serverProblems words the server's 400 details by field: the order of
// the dates ("must be after applications_open_at") and a close already
// past as the browser says them, any other reason after the field's
// label. Details of fields the form does not show are left out.
export function serverProblems(
  details: Readonly<Record<string, string>>,
  w: Words,
  labels: Readonly<Record<Field, string>>,
  sentence: (label: string, reason: string) => string,
): Problems {
  const out: Problems = {};
  for (const f of fields) {
    const reason = details[f];
    if (!reason) continue;
    const after = /^must be after (\w+)$/.exec(reason.trim());
    if (after && (timeFields as readonly string[]).includes(f) && (timeFields as readonly string[]).includes(after[1] ?? '')) {
      out[f] = w.order(f as TimeField, after[1] as TimeField);
    } else if (f === 'applications_close_at' && reason.trim() === 'must be in the future') {
      out[f] = w.closePast;
    } else {
      out[f] = sentence(labels[f], reason);
    }
  }
  return out;
}
