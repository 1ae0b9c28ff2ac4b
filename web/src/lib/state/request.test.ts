import { describe, expect, it } from 'vitest';
import { ServiceError } from '../services/errors';
import { Resource } from './request.svelte';

const later = <T>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe('Resource', () => {
  it('goes from loading to ready, or to the refusal as a ServiceError', async () => {
    const r = new Resource(async () => 1);
    expect(r.loading).toBe(true);
    await r.reload();
    expect(r.state).toEqual({ kind: 'ready', data: 1 });
    const f = new Resource<number>(() => Promise.reject(new ServiceError(404, 'No term')));
    await f.reload();
    expect(f.error).toMatchObject({ kind: 'notFound', reason: 'noTerm' });
  });
  it('drops an answer that arrives after a newer request', async () => {
    const first = later<string>();
    const second = later<string>();
    const r = new Resource(async () => 'x');
    const a = r.settle(first.promise);
    const b = r.settle(second.promise);
    second.resolve('new');
    first.resolve('old');
    await Promise.all([a, b]);
    expect(r.data).toBe('new');
    expect(r.busy).toBe(false);
  });
  it('keeps the data shown while the next request loads when asked to', async () => {
    const r = new Resource(async () => 1, { keep: true });
    await r.reload();
    const next = later<number>();
    const p = r.settle(next.promise);
    expect(r.data).toBe(1);
    expect(r.busy).toBe(true);
    next.reject(new ServiceError(0, 'offline'));
    await p;
    expect(r.error?.kind).toBe('offline');
    expect(r.latest).toBe(1);
  });
  it('goes back to loading otherwise, and quietly keeps what is shown on a failure', async () => {
    let n = 0;
    const r = new Resource(async () => {
      if (++n === 3) throw new ServiceError(500, 'Internal');
      return n;
    });
    await r.reload();
    const p = r.reload();
    expect(r.loading).toBe(true);
    await p;
    await r.quietly();
    expect(r.state).toEqual({ kind: 'ready', data: 2 });
  });
});
