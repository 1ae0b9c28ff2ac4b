// The event day's door: one person by their ticket's signed link or by
// id, the search, the check-in (with the tap's client_id, so a replay
// answers as the first did), undo, and the count. Plain fetch: the door's
// page keeps its script small, and a 409's body (when, by whom) is read
// whole.
import type { Schemas } from './types';

export type Person = Schemas['CheckinPerson'];
export type Hit = { id: string; name: string; email: string; decision: string | null; rsvp: string | null; checked_in_at: string | null };
export type Count = { checked_in: number; attending: number };

// Outcome is how the API answered a check-in. offline: no answer at all
// (the tap is kept and sent later).
export type Outcome =
  | { kind: 'done'; at: string }
  | { kind: 'already'; at: string; by: string }
  | { kind: 'refused'; status: number; error: string; message: string }
  | { kind: 'offline' };

async function json<T>(r: Response): Promise<T> {
  if (!r.ok) {
    const b = (await r.json().catch(() => ({}))) as { error?: string; message?: string };
    throw Object.assign(new Error(b.error ?? `HTTP ${r.status}`), { status: r.status, message2: b.message ?? '' });
  }
  return (await r.json()) as T;
}

const opts: RequestInit = { credentials: 'same-origin', headers: { Accept: 'application/json' } };

export const checkin = {
  person: (id: string, sig: string | null): Promise<Person> =>
    fetch(`/api/checkin/${encodeURIComponent(id)}${sig ? `?sig=${encodeURIComponent(sig)}` : ''}`, opts).then(json<Person>),
  search: (q: string): Promise<Hit[]> =>
    fetch(`/api/checkin?q=${encodeURIComponent(q)}`, opts)
      .then(json<{ results: Hit[] }>)
      .then((r) => r.results),
  count: (): Promise<Count> => fetch('/api/checkin/count', opts).then(json<Count>),
  undo: async (id: string): Promise<{ ok: boolean; error: string; message: string }> => {
    const r = await fetch(`/api/checkin/${encodeURIComponent(id)}`, { ...opts, method: 'DELETE' });
    if (r.ok) return { ok: true, error: '', message: '' };
    const b = (await r.json().catch(() => ({}))) as { error?: string; message?: string };
    return { ok: false, error: b.error ?? '', message: b.message ?? '' };
  },
  // post checks a person in; a network failure is "offline", never thrown.
  post: async (id: string, body: { sig?: string | null; client_id: string; walk_in?: boolean }): Promise<Outcome> => {
    let r: Response;
    try {
      r = await fetch(`/api/checkin/${encodeURIComponent(id)}`, {
        ...opts,
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch {
      return { kind: 'offline' };
    }
    const b = (await r.json().catch(() => ({}))) as Record<string, string | undefined>;
    if (r.ok) return { kind: 'done', at: b.checked_in_at ?? '' };
    if (r.status === 409 && b.error === 'Already checked in') return { kind: 'already', at: b.checked_in_at ?? '', by: b.checked_in_by ?? '' };
    if (r.status >= 500 || r.status === 0) return { kind: 'offline' };
    return { kind: 'refused', status: r.status, error: b.error ?? '', message: b.message ?? '' };
  },
};
