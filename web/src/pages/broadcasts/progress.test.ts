import { describe, expect, it } from 'vitest';
import { handled, milestone, sending } from './progress';

const r = (status: string, sent: number, total = 10, failed = 0, skipped = 0) => ({ status, total, sent, failed, skipped });

describe('broadcast progress', () => {
  it('counts every recipient tried', () => {
    expect(handled(r('sending', 3, 10, 1, 1))).toBe(5);
  });
  it('announces half way once', () => {
    expect(milestone(r('sending', 2), r('sending', 5))).toBe('half');
    expect(milestone(r('sending', 5), r('sending', 6))).toBeNull();
  });
  it('announces the end once', () => {
    expect(milestone(r('sending', 8), r('done', 10))).toBe('done');
    expect(milestone(r('done', 10), r('done', 10))).toBeNull();
    expect(milestone(r('sending', 2), r('cancelled', 2))).toBe('cancelled');
  });
  it('follows only while sending', () => {
    expect(sending(r('sending', 0))).toBe(true);
    expect(sending(r('done', 10))).toBe(false);
  });
});
