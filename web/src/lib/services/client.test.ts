import { describe, expect, it } from 'vitest';
import { call } from './client';
import { filenameOf } from './transfer';
import { ServiceError } from './errors';

const answer = <T>(status: number, data?: T, error?: unknown, headers: Record<string, string> = {}) =>
  Promise.resolve({ data, error, response: new Response(null, { status, headers }) });

describe('call', () => {
  it('answers the data of a success', async () => {
    await expect(call(answer(200, { ok: 1 }))).resolves.toEqual({ ok: 1 });
  });
  it('throws the refusal as a ServiceError with its words and wait', async () => {
    const e = await call(answer(429, undefined, { error: 'Too many requests', message: 'slow down' }, { 'Retry-After': '30' })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServiceError);
    expect(e).toMatchObject({ kind: 'rateLimited', title: 'Too many requests', detail: 'slow down', retryAfter: 30 });
  });
  it('keeps the per-field details of an invalid request', async () => {
    const e = await call(answer(400, undefined, { error: 'Validation failed', details: { email: 'is required' } })).catch((x: unknown) => x);
    expect(e).toMatchObject({ kind: 'invalid', details: { email: 'is required' } });
  });
  it('says offline when the request never reached the server', async () => {
    const e = await call(Promise.reject(new TypeError('Failed to fetch'))).catch((x: unknown) => x);
    expect(e).toMatchObject({ kind: 'offline' });
  });
});

describe('filenameOf', () => {
  it('reads the file name from Content-Disposition', () => {
    expect(filenameOf('attachment; filename="2026-2027-onboarding.csv"', 'x.csv')).toBe('2026-2027-onboarding.csv');
    expect(filenameOf(null, 'x.csv')).toBe('x.csv');
    expect(filenameOf('attachment; filename="../evil"', 'x.csv')).toBe('x.csv');
  });
});
