import { describe, expect, it } from 'vitest';
import { apiQuery, defaults, filtered, format, parse, refusedMove } from './query';

const pos = '0b6f1c5e-8a55-4f0b-9b7d-2a3c4d5e6f70';

describe('selections URL state', () => {
  it('reads defaults from an empty query', () => {
    expect(parse('')).toEqual(defaults);
    expect(format(defaults)).toBe('');
  });
  it('round-trips every field', () => {
    const s = { q: 'ann', status: 'interviewing' as const, position: pos, page: 3, pageSize: 25 };
    expect(format(s)).toBe(`?q=ann&status=interviewing&position_id=${pos}&page=3&page_size=25`);
    expect(parse(format(s))).toEqual(s);
  });
  it('drops unknown or malformed values', () => {
    expect(parse('?status=hired&position_id=nope&page=-2&page_size=7')).toEqual(defaults);
    expect(parse('?page=1.5').page).toBe(1);
  });
  it('says when the view is narrowed', () => {
    expect(filtered(defaults)).toBe(false);
    expect(filtered({ ...defaults, q: '  ' })).toBe(false);
    expect(filtered({ ...defaults, position: pos })).toBe(true);
  });
  it('builds the API query without empty filters', () => {
    expect(apiQuery({ ...defaults, q: ' ann ' })).toEqual({ q: 'ann', status: undefined, position_id: undefined, page: 1, page_size: 10 });
  });
});

describe('refusedMove', () => {
  it('reads the statuses of a refused move', () => {
    expect(refusedMove('cannot move from rejection_sent to interviewing')).toEqual({ from: 'rejection_sent', to: 'interviewing' });
  });
  it('answers null for another message', () => {
    expect(refusedMove(undefined)).toBeNull();
    expect(refusedMove('Offer already accepted')).toBeNull();
  });
});
