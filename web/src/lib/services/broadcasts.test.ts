import { describe, expect, it } from 'vitest';
import { audienceDetails, audienceOf } from './broadcasts';
import { ServiceError } from './errors';

describe('audienceOf', () => {
  it('gives a term only to the members’ audiences', () => {
    expect(audienceOf('members', 't1', 'offer')).toEqual({ kind: 'members', term_id: 't1', status: undefined });
    expect(audienceOf('paid_members', '', 'any')).toEqual({ kind: 'paid_members', term_id: undefined, status: undefined });
    expect(audienceOf('execs', 't1', 'offer')).toEqual({ kind: 'execs', term_id: undefined, status: undefined });
  });
  it('gives a decision only to the applicants, none for any', () => {
    expect(audienceOf('applicants', 't1', 'waitlist')).toEqual({ kind: 'applicants', term_id: undefined, status: 'waitlist' });
    expect(audienceOf('applicants', '', 'any').status).toBeUndefined();
  });
});

describe('audienceDetails', () => {
  it('picks the audience’s reasons by the form’s field', () => {
    const e = new ServiceError(400, 'Validation failed', undefined, { 'audience.kind': 'is unknown', 'audience.term_id': 'is not a term', subject: 'is blank' });
    expect(audienceDetails(e)).toEqual({ audience: 'is unknown', term: 'is not a term' });
    expect(audienceDetails(new ServiceError(400, 'Validation failed', undefined, { audience: 'is required', 'audience.status': 'is unknown' }))).toEqual({
      audience: 'is required',
      decision: 'is unknown',
    });
  });
});
