import { describe, expect, it } from 'vitest';
import { dietRows, sizeRows } from './catering';

describe('catering rows', () => {
  it('orders the sizes, "not given" last, with the checked-in counts', () => {
    const all = { tshirt_sizes: { 'not given': 1, XL: 2, S: 3, M: 4 }, dietary: {} };
    const inside = { tshirt_sizes: { M: 1 }, dietary: {} };
    expect(sizeRows(all, inside)).toEqual([
      { name: 'S', attending: 3, checkedIn: 0 },
      { name: 'M', attending: 4, checkedIn: 1 },
      { name: 'XL', attending: 2, checkedIn: 0 },
      { name: 'not given', attending: 1, checkedIn: 0 },
    ]);
  });
  it('puts the commonest diet first and "other" last', () => {
    const all = { tshirt_sizes: {}, dietary: { other: 9, vegan: 2, halal: 5 } };
    const inside = { tshirt_sizes: {}, dietary: { vegan: 2 } };
    expect(dietRows(all, inside).map((r) => r.name)).toEqual(['halal', 'vegan', 'other']);
    expect(dietRows(all, inside)[1]).toEqual({ name: 'vegan', attending: 2, checkedIn: 2 });
  });
});
