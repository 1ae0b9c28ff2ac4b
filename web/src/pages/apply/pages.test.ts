import { describe, expect, it } from 'vitest';
import { fieldId, fieldOfId, nextPage, pages, pagesLeaving, previousPage, stepOf } from './pages';

describe('pages and steps', () => {
  it('has 11 pages in 6 steps', () => {
    expect(pages).toHaveLength(11);
    expect(new Set(pages.map((p) => p.step)).size).toBe(6);
  });

  it('moves by page on a small screen and by step on a wide one', () => {
    expect(nextPage(0, false)).toBe(1);
    expect(nextPage(0, true)).toBe(3);
    expect(nextPage(1, true)).toBe(3);
    expect(nextPage(7, true)).toBe(8);
    expect(nextPage(10, true)).toBe(10);
    expect(previousPage(4, false)).toBe(3);
    expect(previousPage(4, true)).toBe(0);
    expect(previousPage(0, true)).toBe(0);
    expect(stepOf(7)).toBe(2);
  });

  it('checks the page below 40rem and the whole step above', () => {
    expect(pagesLeaving(4, false)).toEqual([4]);
    expect(pagesLeaving(4, true)).toEqual([3, 4, 5]);
  });

  it('maps fields to element ids and back', () => {
    expect(fieldId('phone')).toBe('f-phone');
    expect(fieldId('answers.abc')).toBe('f-q-abc');
    expect(fieldOfId('f-q-abc')).toBe('answers.abc');
    expect(fieldOfId('f-phone')).toBe('phone');
    expect(fieldOfId('main')).toBeNull();
  });
});
