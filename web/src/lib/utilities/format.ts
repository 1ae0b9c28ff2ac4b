// Dates and numbers go through Intl, in the reader's locale and time zone.
const locale = typeof navigator === 'undefined' ? 'en' : navigator.language || 'en';

export function dateTime(iso: string | null | undefined, opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : new Intl.DateTimeFormat(locale, opts).format(d);
}

export function dateOnly(iso: string | null | undefined): string {
  return dateTime(iso, { dateStyle: 'long' });
}

// zoneName is the reader's time zone, shown beside deadlines.
export function zoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function number(n: number | null | undefined, opts?: Intl.NumberFormatOptions): string {
  return n === null || n === undefined ? '' : new Intl.NumberFormat(locale, opts).format(n);
}

export function money(cents: number, currency = 'CAD'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
}

export function percent(fraction: number): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(fraction);
}

// fromNow is how far an instant is from now in words ("in 2 days", "in 5
// hours", "tomorrow"): days from a day away, hours from an hour, minutes
// below.
export function fromNow(iso: string, now: Date = new Date()): string {
  const ms = new Date(iso).getTime() - now.getTime();
  if (Number.isNaN(ms)) return '';
  const f = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const minute = 60_000;
  const hour = 60 * minute;
  const day = 24 * hour;
  if (Math.abs(ms) >= day) return f.format(Math.round(ms / day), 'day');
  if (Math.abs(ms) >= hour) return f.format(Math.round(ms / hour), 'hour');
  return f.format(Math.round(ms / minute), 'minute');
}

// bytes is a size in bytes, kilobytes or megabytes, in the reader's locale.
export function bytes(n: number): string {
  if (n < 1024) return number(n, { style: 'unit', unit: 'byte', unitDisplay: 'long' });
  if (n < 1024 * 1024) return number(n / 1024, { style: 'unit', unit: 'kilobyte', unitDisplay: 'short', maximumFractionDigits: 0 });
  return number(n / (1024 * 1024), { style: 'unit', unit: 'megabyte', unitDisplay: 'short', maximumFractionDigits: 1 });
}
