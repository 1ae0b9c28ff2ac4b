import { describe, expect, it } from 'vitest';
import { refusedMove } from './selections';

describe('refusedMove', () => {
  it('reads the statuses of a refused move', () => {
    expect(refusedMove('cannot move from rejection_sent to interviewing')).toEqual({ from: 'rejection_sent', to: 'interviewing' });
  });
  it('answers null for another message', () => {
    expect(refusedMove(undefined)).toBeNull();
    expect(refusedMove('Offer already accepted')).toBeNull();
  });
});
