import { describe, expect, it } from 'vitest';
import { chosenTerm, defaultTerm, offersChoice, termLabel, type TermSummary } from './hiringTerms';

const term = (id: string, o: Partial<TermSummary> = {}): TermSummary => ({
  id,
  name: id,
  active: false,
  hiring: false,
  positions: 0,
  onboarding: 0,
  returning: 0,
  ...o,
});
const withPositions = (t: TermSummary) => t.positions > 0;

describe('the hiring pages’ term', () => {
  it('is the hiring term when it has what the page shows', () => {
    const terms = [term('next', { hiring: true, positions: 2 }), term('now', { active: true, positions: 3 })];
    expect(defaultTerm(terms, withPositions)?.id).toBe('next');
  });

  it('is the latest term that has it when the hiring term has none (a VP’s positions in the active term)', () => {
    const terms = [term('next', { hiring: true }), term('now', { active: true, positions: 3 }), term('old', { positions: 1 })];
    expect(defaultTerm(terms, withPositions)?.id).toBe('now');
  });

  it('is the hiring term when no term has it, and none without terms', () => {
    expect(defaultTerm([term('next', { hiring: true }), term('now', { active: true })], withPositions)?.id).toBe('next');
    expect(defaultTerm([], withPositions)).toBeNull();
  });

  it('is the one the address names when listed, else the default', () => {
    const terms = [term('next', { hiring: true, positions: 1 }), term('now', { active: true, positions: 1 })];
    expect(chosenTerm(terms, 'now', withPositions)?.id).toBe('now');
    expect(chosenTerm(terms, 'gone', withPositions)?.id).toBe('next');
    expect(chosenTerm(terms, '', withPositions)?.id).toBe('next');
  });

  it('is chosen only when more than one term has positions or submissions', () => {
    expect(offersChoice([term('next', { hiring: true, positions: 1 }), term('now', { active: true })])).toBe(false);
    expect(offersChoice([term('next', { hiring: true, positions: 1 }), term('now', { active: true, onboarding: 4 })])).toBe(true);
    expect(offersChoice([term('a', { returning: 1 }), term('b', { positions: 1 }), term('c')])).toBe(true);
  });

  it('is named with what it is', () => {
    const w = { hiring: 'hiring term', active: 'active term', both: 'active and hiring term' };
    expect(termLabel({ name: '2026-2027', hiring: true, active: false }, w)).toBe('2026-2027 (hiring term)');
    expect(termLabel({ name: '2025-2026', hiring: false, active: true }, w)).toBe('2025-2026 (active term)');
    expect(termLabel({ name: '2025-2026', hiring: true, active: true }, w)).toBe('2025-2026 (active and hiring term)');
    expect(termLabel({ name: '2024-2025', hiring: false, active: false }, w)).toBe('2024-2025');
  });
});
