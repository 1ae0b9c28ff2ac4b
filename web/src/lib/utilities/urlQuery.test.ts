import { describe, expect, it } from 'vitest';
import { param, sortBy, urlQuery } from './urlQuery';

const query = urlQuery({
  q: param.text('q', { max: 5 }),
  status: param.choice('status', ['open', 'closed'] as const, ''),
  sort: param.choice('sort', ['name', 'date'] as const, 'name'),
  order: param.order('asc'),
  who: param.uuid('who_id'),
  change: param.flag('change'),
  page: param.page(),
  pageSize: param.pageSize(25),
  interval: param.number('interval', [1, 24], 24, { always: true }),
});

describe('urlQuery', () => {
  it('reads defaults from an empty query', () => {
    expect(query.parse('')).toEqual({ q: '', status: '', sort: 'name', order: 'asc', who: '', change: false, page: 1, pageSize: 25, interval: 24 });
  });
  it('writes the fields in their order, defaults left out but for always', () => {
    const id = '0B6F1C5E-8A55-4F0B-9B7D-2A3C4D5E6F70';
    const s = query.parse(`?page=2&q=%20ann%20&who_id=${id}&change=1&sort=date&interval=1`);
    expect(s).toMatchObject({ q: ' ann ', sort: 'date', who: id.toLowerCase(), change: true, page: 2, interval: 1 });
    expect(query.format(s)).toBe(`?q=ann&sort=date&who_id=${id.toLowerCase()}&change=1&page=2&interval=1`);
    expect(query.format(query.defaults)).toBe('?interval=24');
  });
  it('falls back on anything unknown or out of range', () => {
    expect(query.parse('?status=gone&order=up&who_id=nope&page=0&page_size=7&interval=2&q=abcdefgh')).toMatchObject({
      status: '', order: 'asc', who: '', page: 1, pageSize: 25, interval: 24, q: 'abcde',
    });
    expect(query.parse('?page=1.5').page).toBe(1);
  });
});

describe('sortBy', () => {
  it('turns the same column round and starts another in its first order, on page 1', () => {
    const s = { ...query.defaults, page: 3 };
    expect(sortBy(s, 'name')).toMatchObject({ sort: 'name', order: 'desc', page: 1 });
    expect(sortBy(s, 'date', (k) => (k === 'date' ? 'desc' : 'asc'))).toMatchObject({ sort: 'date', order: 'desc', page: 1 });
    expect(sortBy({ sort: 'a', order: 'asc' as const }, 'b')).toEqual({ sort: 'b', order: 'asc' });
  });
});
