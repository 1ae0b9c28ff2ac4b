import { describe, expect, it } from 'vitest';
import { newKey } from './keys';

describe('newKey', () => {
  it('is a version 4 UUID, new each time', () => {
    const a = newKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newKey()).not.toBe(a);
  });
});
