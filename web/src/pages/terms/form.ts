// The term form's rules: dates as YYYY-MM-DD (date pickers), window times
// chosen in the reader's zone with datetime-local pickers
// ("YYYY-MM-DDTHH:MM") and sent as RFC 3339, the checks the
// server makes (a name of 1 to 100 characters, the term ends after it
// starts, each window is both times or neither and opens before it
// closes), the body of a create or an edit, and a window's state now.
import { schemaTermBody } from '$lib/rules.gen';
import { isDate, localInput, parseLocal, pickerInput } from '$lib/utilities/localTime';
import { param, urlQuery } from '$lib/utilities/urlQuery';
import type { Term, TermBody as Body } from '$lib/services/terms';

export type { Term, Body };
export const windowFields = ['onboarding_opens_at', 'onboarding_closes_at', 'returning_opens_at', 'returning_closes_at'] as const;
export const fields = ['name', 'starts_on', 'ends_on', ...windowFields] as const;
export type Field = (typeof fields)[number];
export type Values = Record<Field, string>;
export type Problems = Partial<Record<Field, string>>;

export { isDate, localInput, parseLocal, pickerInput };

export function valuesOf(t: Term | null): Values {
  return {
    name: t?.name ?? '',
    starts_on: t?.starts_on ?? '',
    ends_on: t?.ends_on ?? '',
    onboarding_opens_at: pickerInput(t?.onboarding_opens_at),
    onboarding_closes_at: pickerInput(t?.onboarding_closes_at),
    returning_opens_at: pickerInput(t?.returning_opens_at),
    returning_closes_at: pickerInput(t?.returning_closes_at),
  };
}

export type Words = {
  nameRequired: string;
  nameTooLong: (max: number) => string;
  dateRequired: (field: 'starts_on' | 'ends_on') => string;
  dateInvalid: (field: 'starts_on' | 'ends_on') => string;
  endsBeforeStarts: string;
  timeInvalid: (field: (typeof windowFields)[number]) => string;
  bothTimes: (window: 'onboarding' | 'returning') => string;
  closesBeforeOpens: (window: 'onboarding' | 'returning') => string;
};

export function checkTerm(v: Values, w: Words): Problems {
  const out: Problems = {};
  const name = v.name.trim();
  const max = schemaTermBody.name.maxLength;
  if (name === '') out.name = w.nameRequired;
  else if ([...name].length > max) out.name = w.nameTooLong(max);
  for (const f of ['starts_on', 'ends_on'] as const) {
    if (v[f].trim() === '') out[f] = w.dateRequired(f);
    else if (!isDate(v[f])) out[f] = w.dateInvalid(f);
  }
  if (!out.starts_on && !out.ends_on && v.ends_on.trim() <= v.starts_on.trim()) out.ends_on = w.endsBeforeStarts;
  for (const f of windowFields) {
    if (v[f].trim() !== '' && parseLocal(v[f]) === null) out[f] = w.timeInvalid(f);
  }
  for (const win of ['onboarding', 'returning'] as const) {
    const o = `${win}_opens_at` as const;
    const c = `${win}_closes_at` as const;
    if (out[o] || out[c]) continue;
    const opens = v[o].trim();
    const closes = v[c].trim();
    if ((opens === '') !== (closes === '')) out[opens === '' ? o : c] = w.bothTimes(win);
    else if (opens !== '' && (parseLocal(opens) as string) >= (parseLocal(closes) as string)) out[c] = w.closesBeforeOpens(win);
  }
  return out;
}

// bodyFor is the body that creates a term from v, or, given the term as
// it is, the body that changes only what differs (a cleared window time
// is null); null when nothing changes.
export function bodyFor(v: Values, was: Term | null): Body | null {
  const body: Body = {};
  const before = valuesOf(was);
  if (!was || v.name.trim() !== before.name) body.name = v.name.trim();
  if (!was || v.starts_on.trim() !== before.starts_on) body.starts_on = v.starts_on.trim();
  if (!was || v.ends_on.trim() !== before.ends_on) body.ends_on = v.ends_on.trim();
  for (const f of windowFields) {
    const now = v[f].trim() === '' ? null : parseLocal(v[f]);
    const then = was?.[f] ? new Date(was[f] as string).toISOString() : null;
    if (!was) {
      if (now) body[f] = now;
    } else if (now !== then && v[f].trim() !== before[f]) {
      body[f] = now;
    }
  }
  return Object.keys(body).length > 0 ? body : null;
}

export type WindowState = 'open' | 'upcoming' | 'closed' | 'unset';

export function windowState(opens: string | null, closes: string | null, now: Date): WindowState {
  if (!opens || !closes) return 'unset';
  const t = now.getTime();
  if (t < new Date(opens).getTime()) return 'upcoming';
  if (t < new Date(closes).getTime()) return 'open';
  return 'closed';
}

// The list's page lives in the URL (?page=).
export const listQuery = urlQuery({ page: param.page() });
