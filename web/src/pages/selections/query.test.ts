import { describe, expect, it } from 'vitest';
import { defaults, filtered, listQuery } from './query';

const { parse, format } = listQuery;
const pos = '0b6f1c5e-8a55-4f0b-9b7d-2a3c4d5e6f70';

describe('selections URL state', () => {
  it('reads defaults from an empty query', () => {
    expect(parse('')).toEqual(defaults);
    expect(format(defaults)).toBe('');
  });
  it('round-trips every field', () => {
    const term = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    const s = { termId: term, q: 'ann', status: 'interviewing' as const, position: pos, page: 3, pageSize: 25 };
    expect(format(s)).toBe(`?term_id=${term}&q=ann&status=interviewing&position_id=${pos}&page=3&page_size=25`);
    expect(parse(format(s))).toEqual(s);
  });
  it('drops unknown or malformed values', () => {
    expect(parse('?term_id=2026&status=hired&position_id=nope&page=-2&page_size=7')).toEqual(defaults);
    expect(parse('?page=1.5').page).toBe(1);
  });
  it('says when the view is narrowed', () => {
    expect(filtered(defaults)).toBe(false);
    expect(filtered({ ...defaults, q: '  ' })).toBe(false);
    expect(filtered({ ...defaults, position: pos })).toBe(true);
  });
});
