// The leaderboard page's pure rules: ranks with ties, the podium, the
// table's view state in the URL, and which parts of an answer failed.
import type { Board, Entry } from '$lib/services/reviews';
import { param, sortBy, urlQuery } from '$lib/utilities/urlQuery';

export type { Entry, Statistics } from '$lib/services/reviews';
export type Ranked = Entry & { rank: number; tied: boolean };

// rank gives each entry its standard competition rank (1, 2, 2, 4): one
// more than the number of reviewers with more reviews, so equal counts
// share a rank. Entries keep the server's order (most reviews first).
export function rank(entries: readonly Entry[]): Ranked[] {
  const counts = new Map<number, number>();
  for (const e of entries) counts.set(e.review_count, (counts.get(e.review_count) ?? 0) + 1);
  return entries.map((e) => ({
    ...e,
    rank: 1 + entries.filter((o) => o.review_count > e.review_count).length,
    tied: (counts.get(e.review_count) ?? 0) > 1,
  }));
}

// podium is the first three reviewers of the ranking (a tie for third
// keeps the first three in the server's order).
export function podium(ranked: readonly Ranked[]): Ranked[] {
  return ranked.slice(0, 3);
}

export const sortKeys = ['rank', 'name', 'email', 'reviews'] as const;
export type SortKey = (typeof sortKeys)[number];

// The table's view in the address: sort, order, search, the reviewer whose
// averages are open.
export const viewQuery = urlQuery({
  sort: param.choice('sort', sortKeys, 'rank'),
  order: param.order('asc'),
  q: param.text('q'),
  reviewer: param.uuid('reviewer'),
});
export type ViewState = ReturnType<typeof viewQuery.parse>;
export const defaultView = viewQuery.defaults;

// nextSort is the view after pressing a column header: the same column
// flips its order, another starts in its natural order (counts and ranks
// from the top, words A to Z).
export function nextSort(v: ViewState, key: SortKey): ViewState {
  return sortBy(v, key, (k) => (k === 'reviews' ? 'desc' : 'asc'));
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

// visible filters the ranking by q (name or email, case-insensitive) and
// sorts it; ties in the sort key keep the rank order.
export function visible(ranked: readonly Ranked[], v: ViewState): Ranked[] {
  const q = v.q.trim().toLowerCase();
  const rows = q ? ranked.filter((r) => r.email.toLowerCase().includes(q) || (r.name ?? '').toLowerCase().includes(q)) : [...ranked];
  const dir = v.order === 'asc' ? 1 : -1;
  const cmp = (a: Ranked, b: Ranked): number => {
    switch (v.sort) {
      case 'name':
        return collator.compare(a.name ?? '', b.name ?? '');
      case 'email':
        return collator.compare(a.email, b.email);
      case 'reviews':
        return a.review_count - b.review_count;
      default:
        return a.rank - b.rank;
    }
  };
  const index = new Map(ranked.map((r, i) => [r.reviewer_id, i]));
  return rows.sort((a, b) => dir * cmp(a, b) || (index.get(a.reviewer_id) ?? 0) - (index.get(b.reviewer_id) ?? 0));
}

// Parts says what to show of an answer: the ranking (failed, empty or
// there), the statistics (failed or there), or nothing at all when both
// parts failed (then the page shows the error with a retry).
export type Parts = { kind: 'failed' } | { kind: 'board'; ranking: 'failed' | 'empty' | 'ok'; statistics: 'failed' | 'ok' };

export function parts(a: Pick<Board, 'leaderboard' | 'failed'>): Parts {
  const failed = new Set(a.failed ?? []);
  if (failed.has('leaderboard') && failed.has('statistics')) return { kind: 'failed' };
  return {
    kind: 'board',
    ranking: failed.has('leaderboard') ? 'failed' : a.leaderboard.length === 0 ? 'empty' : 'ok',
    statistics: failed.has('statistics') ? 'failed' : 'ok',
  };
}

// parseCap reads the review cap field: empty is no cap (null), a whole
// number of 1 or more is the cap, anything else is undefined (refused).
export function parseCap(raw: string): number | null | undefined {
  const s = raw.trim();
  if (s === '') return null;
  if (!/^\d{1,9}$/.test(s)) return undefined;
  const n = Number(s);
  return n >= 1 ? n : undefined;
}
