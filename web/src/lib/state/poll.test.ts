import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Poller } from './poll.svelte';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Poller', () => {
  it('reads again after the delay each read answers, and stops on null', async () => {
    const delays = [1000, 1000, null];
    let reads = 0;
    const p = new Poller(async () => delays[reads++] ?? null);
    p.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toBe(3);
    await vi.advanceTimersByTimeAsync(5000);
    expect(reads).toBe(3);
  });
  it('pauses while the tab is hidden and reads at once when it is shown', async () => {
    let reads = 0;
    let resumed = 0;
    const p = new Poller(
      async () => {
        reads++;
        return 1000;
      },
      () => resumed++,
    );
    p.start();
    await vi.advanceTimersByTimeAsync(0);
    p.shown(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(reads).toBe(1);
    p.shown(true);
    await vi.advanceTimersByTimeAsync(0);
    expect([reads, resumed]).toEqual([2, 1]);
    p.dispose();
    await vi.advanceTimersByTimeAsync(5000);
    expect(reads).toBe(2);
  });
});
