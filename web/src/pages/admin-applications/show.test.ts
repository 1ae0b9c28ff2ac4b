import { describe, expect, it } from 'vitest';
import { decisionText, score, zScore } from './show';

describe('show', () => {
  it('formats scores', () => {
    expect(score(null)).toBe('');
    expect(score(11.5)).toBe('11.5');
    expect(score(12)).toBe('12');
    expect(score(7.3333)).toBe('7.33');
  });
  it('shows a z-score with its sign and two decimals', () => {
    expect(zScore(null)).toBe('');
    expect(zScore(0.5)).toBe('+0.50');
    expect(zScore(-1.234)).toBe('-1.23');
    expect(zScore(0)).toBe('0.00');
  });
  it('says the decision and the RSVP', () => {
    expect(decisionText(null, null)).toBe('Undecided');
    expect(decisionText('offer', null)).toBe('Offer, no answer yet');
    expect(decisionText('offer', 'attending')).toBe('Offer, attending');
    expect(decisionText('reject', null)).toBe('Rejected');
  });
});
