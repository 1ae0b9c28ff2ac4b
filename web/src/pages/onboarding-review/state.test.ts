import { describe, expect, it } from 'vitest';
import { defaults, reviewQuery, sizeParts, sortBy, view } from './state';

const readState = reviewQuery.parse;
const writeState = reviewQuery.format;

const term = '0b6c3f3e-6a55-4c39-9d0c-1b9a3a0c2e11';

describe('URL state', () => {
  it('reads and writes every field, defaults left out', () => {
    const s = readState(`?term_id=${term}&kind=returning&q=%20ada%20&sort=submitted_at&order=desc&page=3&page_size=10`);
    expect(s).toEqual({ termId: term, kind: 'returning', q: 'ada', sort: 'submitted_at', order: 'desc', page: 3, pageSize: 10 });
    expect(readState(writeState(s))).toEqual(s);
    expect(writeState(defaults)).toBe('');
  });
  it('falls back on anything unknown', () => {
    expect(readState('?term_id=nope&kind=other&sort=evil&order=up&page=-1&page_size=7')).toEqual(defaults);
  });
});

describe('sortBy', () => {
  it('flips the same column and starts another ascending, dates newest first', () => {
    expect(sortBy(defaults, 'display_name').order).toBe('desc');
    expect(sortBy({ ...defaults, page: 4 }, 'email')).toMatchObject({ sort: 'email', order: 'asc', page: 1 });
    expect(sortBy(defaults, 'submitted_at')).toMatchObject({ sort: 'submitted_at', order: 'desc' });
  });
});

describe('view', () => {
  const rows = [
    { display_name: 'Zoë Ñandú', email: 'zoe@x.test', role: 'VP', subteam: 'design', submitted_at: '2026-09-02T10:00:00Z' },
    { display_name: 'ada', email: 'ada@x.test', role: 'Exec', subteam: null, submitted_at: '2026-09-03T10:00:00Z' },
    { display_name: 'Bob', email: 'bob@x.test', role: 'President', subteam: 'web', submitted_at: '2026-09-01T10:00:00Z' },
  ];
  it('sorts by name ignoring case, and by date', () => {
    expect(view(rows, defaults).rows.map((r) => r.display_name)).toEqual(['ada', 'Bob', 'Zoë Ñandú']);
    expect(view(rows, { ...defaults, sort: 'submitted_at', order: 'desc' }).rows.map((r) => r.display_name)).toEqual(['ada', 'Zoë Ñandú', 'Bob']);
    expect(view(rows, { ...defaults, sort: 'subteam' }).rows.map((r) => r.display_name)).toEqual(['ada', 'Zoë Ñandú', 'Bob']);
  });
  it('searches name and email without accents', () => {
    expect(view(rows, { ...defaults, q: 'nandu' }).rows.map((r) => r.email)).toEqual(['zoe@x.test']);
    expect(view(rows, { ...defaults, q: 'BOB@' }).total).toBe(1);
    expect(view(rows, { ...defaults, q: 'nobody' }).total).toBe(0);
  });
  it('pages, and a page past the end shows the last', () => {
    const many = Array.from({ length: 23 }, (_, i) => ({ ...rows[0]!, display_name: `P${String(i).padStart(2, '0')}` }));
    const v = view(many, { ...defaults, pageSize: 10, page: 9 });
    expect(v.page).toBe(3);
    expect(v.total).toBe(23);
    expect(v.rows.map((r) => r.display_name)).toEqual(['P20', 'P21', 'P22']);
  });
});

describe('sizes', () => {
  it('sizes bytes for Intl', () => {
    expect(sizeParts(512)).toEqual({ value: 512, unit: 'byte' });
    expect(sizeParts(12_345)).toEqual({ value: 12.3, unit: 'kilobyte' });
    expect(sizeParts(4_560_000)).toEqual({ value: 4.6, unit: 'megabyte' });
  });
});
