import { describe, expect, it } from 'vitest';
import { exportUrl, zipComplete } from './onboarding';

describe('exportUrl', () => {
  it('names the form and, when chosen, the term', () => {
    expect(exportUrl('csv', 'onboarding', '')).toBe('/api/onboarding/export.csv?kind=onboarding');
    expect(exportUrl('zip', 'returning', 't1')).toBe('/api/onboarding/headshots.zip?kind=returning&term_id=t1');
  });
});

describe('zipComplete', () => {
  it('knows a complete ZIP by its end record', () => {
    const end = [0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)];
    expect(zipComplete(new Uint8Array([1, 2, 3, ...end]))).toBe(true);
    expect(zipComplete(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toBe(false);
    expect(zipComplete(new Uint8Array())).toBe(false);
  });
});
