// The pure parts of the dashboard: the interval in the URL, bucket labels
// in the reader's zone, the chart's series and ticks, and the breakdown's rows.
import { param, urlQuery } from '$lib/utilities/urlQuery';

export type Interval = 1 | 24;
export type Bucket = { bucket: string; count: number };

const defaultLocale = typeof navigator === 'undefined' ? 'en' : navigator.language || 'en';

// The edition ('' for the current one) and the interval live in the URL:
// ?interval=1 (hours) or 24 (days, also for anything else), kept in the
// URL once chosen.
export const intervalQuery = urlQuery({
  hackathon: param.uuid('hackathon'),
  interval: param.number<Interval>('interval', [1, 24], 24, { always: true }),
});

export type Capacity = { limit: number | null; attending: number; open_offers: number };

// placesLeft is what the capacity leaves after attending and open offers
// (negative when past it), or null without a capacity.
export function placesLeft(c: Capacity): number | null {
  return c.limit === null ? null : c.limit - c.attending - c.open_offers;
}

const rangeOptions: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};

// bucketLabel is the span a bucket covers (a UTC hour or day) in the
// reader's zone, e.g. "Sat, Mar 1, 5:30 – 6:30 PM".
export function bucketLabel(iso: string, interval: Interval, locale = defaultLocale, timeZone?: string): string {
  const start = new Date(iso);
  if (Number.isNaN(start.getTime())) return '';
  const end = new Date(start.getTime() + interval * 3600_000);
  return new Intl.DateTimeFormat(locale, { ...rangeOptions, timeZone }).formatRange(start, end);
}

// spanOf is the time the buckets cover, from the first one's start to the
// last one's end, in the reader's zone, as the summary says it ("from Fri,
// Feb 28, 8:30 PM to Tue, Mar 4, 8:30 PM"); null without buckets.
export function spanOf(buckets: readonly Bucket[], interval: Interval, locale = defaultLocale, timeZone?: string): { from: string; to: string } | null {
  const first = buckets[0];
  const last = buckets.at(-1);
  if (!first || !last) return null;
  const start = new Date(first.bucket);
  const end = new Date(new Date(last.bucket).getTime() + interval * 3600_000);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return null;
  const f = new Intl.DateTimeFormat(locale, { ...rangeOptions, timeZone });
  return { from: f.format(start), to: f.format(end) };
}

// tickLabel is an axis label for a bucket start (seconds since the epoch):
// the time for hours, the date for days, in the reader's zone.
export function tickLabel(seconds: number, interval: Interval, locale = defaultLocale, timeZone?: string): string {
  const opts: Intl.DateTimeFormatOptions =
    interval === 1 ? { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' } : { month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(locale, { ...opts, timeZone }).format(new Date(seconds * 1000));
}

// series is the chart's data: bucket starts in seconds and their counts.
export function series(timeline: readonly Bucket[]): [number[], number[]] {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const b of timeline) {
    const t = Date.parse(b.bucket);
    if (Number.isNaN(t)) continue;
    xs.push(t / 1000);
    ys.push(b.count);
  }
  return [xs, ys];
}

// ticks picks at most max of the bucket starts, evenly spaced, the first
// always included, so that labels sit under bars and do not overlap.
export function ticks(xs: readonly number[], max: number): number[] {
  if (xs.length === 0) return [];
  const step = Math.max(1, Math.ceil(xs.length / Math.max(1, Math.floor(max))));
  return xs.filter((_, i) => i % step === 0);
}

// peak is the first bucket with the most RSVPs, or undefined when none.
export function peak(timeline: readonly Bucket[]): Bucket | undefined {
  let best: Bucket | undefined;
  for (const b of timeline) if (!best || b.count > best.count) best = b;
  return best;
}

export const statusOrder = ['draft', 'submitted', 'offer', 'waitlist', 'reject', 'attending', 'declined', 'expired'] as const;
export type Status = (typeof statusOrder)[number];

// breakdownRows is the breakdown in the life-cycle order with each
// status's share of all applications (0 when there are none).
export function breakdownRows(b: Record<Status, number>): { status: Status; count: number; share: number }[] {
  const total = statusOrder.reduce((s, k) => s + (b[k] ?? 0), 0);
  return statusOrder.map((status) => {
    const count = b[status] ?? 0;
    return { status, count, share: total ? count / total : 0 };
  });
}
