import { describe, expect, it } from 'vitest';
import { failure, isKind, kindOf, ServiceError, toServiceError } from './errors';

describe('kindOf', () => {
  it('names every status a page words', () => {
    const got = [-1, 0, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503, 500, 502, 418].map(kindOf);
    expect(got).toEqual([
      'aborted', 'offline', 'invalid', 'unauthorized', 'forbidden', 'notFound', 'conflict',
      'tooLarge', 'unsupported', 'unprocessable', 'rateLimited', 'unavailable', 'server', 'server', 'other',
    ]);
  });
});

describe('toServiceError', () => {
  it('reads the body and the wait', () => {
    const e = toServiceError(404, { error: 'No term', message: 'Create a term first' }, '12');
    expect(e).toMatchObject({ kind: 'notFound', reason: 'noTerm', title: 'No term', detail: 'Create a term first', retryAfter: 12, details: {} });
  });
  it('names the status when the body says nothing', () => {
    expect(toServiceError(502, 'Bad gateway', 'soon')).toMatchObject({ kind: 'server', title: 'HTTP 502', retryAfter: undefined });
  });
  it('gives a reason only to the titles pages word themselves', () => {
    expect(new ServiceError(503, 'Code host not configured').reason).toBe('unconfigured');
    expect(new ServiceError(403, 'Form closed', 'Onboarding opens 1 Sep').reason).toBe('formClosed');
    expect(new ServiceError(404, 'Not found').reason).toBeUndefined();
  });
});

describe('failure and isKind', () => {
  it('turns anything thrown into a ServiceError', () => {
    const e = new ServiceError(409, 'Conflict');
    expect(failure(e)).toBe(e);
    expect(failure(new TypeError('bug'))).toMatchObject({ kind: 'other' });
  });
  it('tells kinds apart', () => {
    expect(isKind(new ServiceError(0, 'offline'), 'offline')).toBe(true);
    expect(isKind(new ServiceError(409, 'Conflict'), 'notFound', 'forbidden')).toBe(false);
    expect(isKind(new Error('x'), 'other')).toBe(false);
  });
});
