import { describe, expect, it } from 'vitest';
import { isRedacted, segments } from './links';

describe('segments', () => {
  it('turns URLs into links and leaves the rest as text', () => {
    expect(segments('Confirm: https://x.test/confirm?token=a&b=1.\nThanks')).toEqual([
      { text: 'Confirm: ' },
      { text: 'https://x.test/confirm?token=a&b=1', href: 'https://x.test/confirm?token=a&b=1' },
      { text: '.\nThanks' },
    ]);
  });
  it('keeps markup as text', () => {
    expect(segments('<b>hi</b>')).toEqual([{ text: '<b>hi</b>' }]);
  });
  it('does not link other schemes', () => {
    expect(segments('javascript:alert(1)')).toEqual([{ text: 'javascript:alert(1)' }]);
  });
  it('knows a redacted body', () => {
    expect(isRedacted('[Redacted: this email carried a one-time link.]')).toBe(true);
    expect(isRedacted('Hello')).toBe(false);
  });
});
