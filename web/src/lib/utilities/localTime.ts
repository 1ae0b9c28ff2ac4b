// Instants as a person types them in a form: their zone's date and 24-hour
// time, "YYYY-MM-DD HH:MM" (the terms' and the hackathons' windows), read
// back as RFC 3339 (UTC) for the API.
const pad = (n: number) => String(n).padStart(2, '0');

// localInput is an instant as the reader types it: their zone's date and
// time, "YYYY-MM-DD HH:MM".
export function localInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// pickerInput is the same instant as a datetime-local picker holds it,
// "YYYY-MM-DDTHH:MM".
export function pickerInput(iso: string | null | undefined): string {
  return localInput(iso).replace(' ', 'T');
}

function validDate(y: number, m: number, d: number): boolean {
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s.trim());
  return !!m && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

// parseLocal reads "YYYY-MM-DD HH:MM" (or with a T) in the reader's zone
// as RFC 3339 (UTC), or null when it is not a date and time.
export function parseLocal(s: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})$/.exec(s.trim());
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (!validDate(y, mo, d) || h > 23 || mi > 59) return null;
  return new Date(y, mo - 1, d, h, mi).toISOString();
}
