import { describe, expect, it } from 'vitest';
import { body_submitReview } from '$lib/rules.gen';
import { checkScores, emptyScores, options, range, scoreFields, toBody } from './scores';

describe('scores', () => {
  it('take their ranges from the server rules', () => {
    for (const f of scoreFields) {
      expect(range(f)).toEqual({ min: body_submitReview[f].minimum, max: body_submitReview[f].maximum });
    }
    expect(options('q1_score').map((o) => o.value)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
    expect(options('links_score').map((o) => o.label)).toEqual(['0', '1', '2']);
  });

  it('are all required and range-checked', () => {
    expect(Object.keys(checkScores(emptyScores()))).toEqual([...scoreFields]);
    const ok = { resume_score: '3', links_score: '0', q1_score: '7', q2_score: '2' };
    expect(checkScores(ok)).toEqual({});
    expect(Object.keys(checkScores({ ...ok, links_score: '3' }))).toEqual(['links_score']);
    expect(Object.keys(checkScores({ ...ok, q2_score: '1.5' }))).toEqual(['q2_score']);
  });

  it('become the request body as numbers', () => {
    expect(toBody('id', { resume_score: '3', links_score: '0', q1_score: '7', q2_score: '2' })).toEqual({
      application_id: 'id',
      resume_score: 3,
      links_score: 0,
      q1_score: 7,
      q2_score: 2,
    });
  });
});
