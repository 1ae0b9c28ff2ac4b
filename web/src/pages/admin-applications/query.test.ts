import { describe, expect, it } from 'vitest';
import { adminExportUrl } from '$lib/services/applications';
import { sortBy } from '$lib/utilities/urlQuery';
import { defaults, detailsId, detailsQuery, inEdition, listQuery, localDeadline } from './query';

const { parse, format } = listQuery;
const edition = '0b6f1c5e-8a55-4f0b-9b7d-2a3c4d5e6f70';

describe('URL state', () => {
  it('reads the defaults from an empty query', () => {
    expect(parse('')).toEqual(defaults);
    expect(format(defaults)).toBe('');
  });
  it('round-trips every value', () => {
    const s = {
      hackathon: edition,
      q: 'ana',
      status: 'submitted' as const,
      decision: 'offer' as const,
      rsvp: 'pending' as const,
      sort: 'normalized_score' as const,
      order: 'asc' as const,
      page: 3,
      pageSize: 10,
    };
    expect(format(s)).toBe(`?hackathon=${edition}&q=ana&status=submitted&decision=offer&rsvp=pending&sort=normalized_score&order=asc&page=3&page_size=10`);
    expect(parse(format(s))).toEqual(s);
  });
  it('falls back on unknown values', () => {
    expect(parse('?hackathon=last-year&sort=password&order=up&status=x&decision=maybe&rsvp=yes&page=-2&page_size=1000')).toEqual(defaults);
    expect(parse('?page=2.5&page_size=7').page).toBe(1);
    expect(parse(`?q=${'a'.repeat(150)}`).q).toHaveLength(100);
  });
  it('sorts a new column ascending and turns the same one round, from page 1', () => {
    const s = { ...defaults, page: 4 };
    expect(sortBy(s, 'name')).toMatchObject({ sort: 'name', order: 'asc', page: 1 });
    expect(sortBy(sortBy(s, 'name'), 'name')).toMatchObject({ sort: 'name', order: 'desc' });
    expect(sortBy(s, 'created_at')).toMatchObject({ sort: 'created_at', order: 'asc' });
  });
});

describe('the CSV of the view', () => {
  it('keeps the filters and the order, not the page', () => {
    const s = { ...defaults, hackathon: edition, q: ' ana ', decision: 'none' as const, rsvp: '' as const, page: 4 };
    expect(adminExportUrl(s)).toBe(`/api/admin/applications/export.csv?hackathon=${edition}&q=ana&decision=none&sort=created_at&order=desc`);
    expect(adminExportUrl(defaults)).toBe('/api/admin/applications/export.csv?sort=created_at&order=desc');
  });
});

describe('paths and values', () => {
  it('carries a non-current edition to the details and back', () => {
    expect(inEdition('/admin/applications/abc', '')).toBe('/admin/applications/abc');
    expect(inEdition('/admin/applications/abc', edition)).toBe(`/admin/applications/abc?hackathon=${edition}`);
    expect(detailsQuery.parse(`?hackathon=${edition.toUpperCase()}`).hackathon).toBe(edition);
    expect(detailsQuery.parse('?hackathon=x').hackathon).toBe('');
  });
  it('finds the details id', () => {
    expect(detailsId('/admin/applications')).toBeNull();
    expect(detailsId('/admin/applications/')).toBeNull();
    expect(detailsId('/admin/applications/abc-1')).toBe('abc-1');
    expect(detailsId('/admin/applications/abc/x')).toBeNull();
  });
  it('turns a local date-time into RFC 3339', () => {
    const iso = localDeadline('2030-05-01T09:30');
    expect(iso).toBe(new Date(2030, 4, 1, 9, 30).toISOString());
    expect(localDeadline('')).toBeNull();
    expect(localDeadline('tomorrow')).toBeNull();
  });
});
