import { describe, expect, it } from 'vitest';
import { ServiceError } from '$lib/services/errors';
import { refusal } from './refusal';

describe('refusal', () => {
  it('names the statuses of a refused move', () => {
    const e = new ServiceError(409, 'Invalid status change', 'cannot move from rejection_sent to wanted');
    expect(refusal(e)).toBe('This change is not allowed: the selection is Rejection Sent now, and Rejection Sent cannot move to Wanted.');
  });
  it('keeps the server message of another conflict as a sentence', () => {
    expect(refusal(new ServiceError(409, 'Offer already accepted', 'This applicant has accepted another offer this term'))).toBe(
      'This applicant has accepted another offer this term.',
    );
    expect(refusal(new ServiceError(403, 'Forbidden', 'You cannot change the status of your own application.'))).toBe(
      'You cannot change the status of your own application.',
    );
  });
  it('has its own words for a refusal without a message', () => {
    expect(refusal(new ServiceError(403, 'Forbidden'))).toBe('You cannot change this selection.');
    expect(refusal(new ServiceError(404, 'Selection not found'))).toBe('This selection no longer exists. Reload the page.');
  });
  it('leaves server faults to the usual words, never their internals', () => {
    expect(refusal(new ServiceError(500, 'Internal server error', 'quote request id x'))).not.toContain('request id');
  });
});
