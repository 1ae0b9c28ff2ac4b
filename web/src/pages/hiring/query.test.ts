import { describe, expect, it } from 'vitest';
import type { HiringApplicant as Applicant } from '$lib/services/hiring';
import { sortBy } from '$lib/utilities/urlQuery';
import { boardQuery, defaults, rowsOf, shown, statuses } from './query';

const { parse, format } = boardQuery;

function applicant(name: string | null, email: string, sels: [string, Applicant['selections'][number]['status'], string][]): Applicant {
  return {
    application_id: email,
    profile_id: email,
    display_name: name,
    email,
    selections: sels.map(([title, status, at], i) => ({
      id: `${email}-${i}`,
      position: { id: title, title, subteam: 'Tech' },
      status,
      allowed_statuses: [],
      updated_at: at,
    })),
  };
}

const board = [
  applicant('Cat', 'cat@example.com', [['Developer', 'offer_sent', '2026-03-03T10:00:00Z']]),
  applicant('Ann', 'ann@example.com', [
    ['Developer', 'wanted', '2026-03-01T10:00:00Z'],
    ['Designer', 'in_review', '2026-03-04T10:00:00Z'],
  ]),
  applicant(null, 'bob@example.com', [['Writer', 'rejection_sent', '2026-03-02T10:00:00Z']]),
];

describe('parse and format', () => {
  it('round-trips a state and leaves defaults out', () => {
    const term = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    const s = { termId: term, q: 'ann', status: 'wanted' as const, sort: 'status' as const, order: 'desc' as const, page: 2, pageSize: 10 };
    expect(format(s)).toBe(`?term_id=${term}&q=ann&status=wanted&sort=status&order=desc&page=2&page_size=10`);
    expect(parse(format(s))).toEqual(s);
    expect(format(defaults)).toBe('');
  });
  it('falls back to defaults for anything unknown', () => {
    expect(parse('?term_id=x&status=hired&sort=age&order=up&page=-1&page_size=7')).toEqual(defaults);
  });
  it('takes the statuses from the server in review order', () => {
    expect(statuses[0]).toBe('in_review');
    expect(statuses).toContain('accepted_offer');
  });
});

describe('sortBy', () => {
  it('turns the order round on the same column and starts another ascending', () => {
    expect(sortBy({ ...defaults, page: 3 }, 'name')).toEqual({ ...defaults, order: 'desc', page: 1 });
    expect(sortBy({ ...defaults, order: 'desc' }, 'status')).toEqual({ ...defaults, sort: 'status', order: 'asc' });
  });
});

describe('shown', () => {
  const rows = rowsOf(board);
  const names = (s = defaults) => shown(rows, s).rows.map((r) => `${r.name}/${r.selection.position.title}`);
  it('has one row per selection, named by display name or email', () => {
    expect(rows).toHaveLength(4);
    expect(names()).toEqual(['Ann/Designer', 'Ann/Developer', 'bob@example.com/Writer', 'Cat/Developer']);
  });
  it('searches names and emails and filters by status', () => {
    expect(names({ ...defaults, q: 'BOB' })).toEqual(['bob@example.com/Writer']);
    expect(names({ ...defaults, q: 'cat@' })).toEqual(['Cat/Developer']);
    expect(names({ ...defaults, status: 'wanted' })).toEqual(['Ann/Developer']);
  });
  it('sorts by status in review order and by the last change', () => {
    expect(names({ ...defaults, sort: 'status' })).toEqual(['Ann/Designer', 'Ann/Developer', 'Cat/Developer', 'bob@example.com/Writer']);
    expect(names({ ...defaults, sort: 'updated', order: 'desc' })[0]).toBe('Ann/Designer');
  });
  it('cuts pages and keeps a page past the end on the last one', () => {
    const out = shown(rows, { ...defaults, pageSize: 10, page: 5 });
    expect(out.page).toBe(1);
    expect(out.total).toBe(4);
  });
});
