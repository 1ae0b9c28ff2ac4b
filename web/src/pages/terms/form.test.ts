import { describe, expect, it } from 'vitest';
import { bodyFor, checkTerm, isDate, localInput, parseLocal, pickerInput, valuesOf, windowState, type Term, type Values } from './form';

const w = {
  nameRequired: 'name',
  nameTooLong: (n: number) => `name ${n}`,
  dateRequired: (f: string) => `req ${f}`,
  dateInvalid: (f: string) => `bad ${f}`,
  endsBeforeStarts: 'ends first',
  timeInvalid: (f: string) => `time ${f}`,
  bothTimes: (win: string) => `both ${win}`,
  closesBeforeOpens: (win: string) => `order ${win}`,
};
const good: Values = {
  name: 'Fall 2026',
  starts_on: '2026-09-01',
  ends_on: '2026-12-20',
  onboarding_opens_at: '2026-09-01T09:00',
  onboarding_closes_at: '2026-09-15T17:00',
  returning_opens_at: '',
  returning_closes_at: '',
};
const term: Term = {
  id: 't1',
  name: 'Fall 2026',
  starts_on: '2026-09-01',
  ends_on: '2026-12-20',
  onboarding_opens_at: new Date(2026, 8, 1, 9, 0).toISOString(),
  onboarding_closes_at: new Date(2026, 8, 15, 17, 0).toISOString(),
  returning_opens_at: null,
  returning_closes_at: null,
  active: false,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('term dates and times', () => {
  it('reads dates and local times', () => {
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2028-02-29')).toBe(true);
    expect(parseLocal('2026-09-01 09:00')).toBe(new Date(2026, 8, 1, 9, 0).toISOString());
    expect(parseLocal('2026-09-01T9:05')).toBe(new Date(2026, 8, 1, 9, 5).toISOString());
    expect(parseLocal('2026-09-01 24:00')).toBeNull();
    expect(parseLocal('1 Sept')).toBeNull();
    expect(localInput(new Date(2026, 8, 1, 9, 0).toISOString())).toBe('2026-09-01 09:00');
    expect(localInput(null)).toBe('');
    expect(pickerInput(new Date(2026, 8, 1, 9, 0).toISOString())).toBe('2026-09-01T09:00');
    expect(pickerInput(null)).toBe('');
  });
});

describe('the term form', () => {
  it('accepts a good term', () => {
    expect(checkTerm(good, w)).toEqual({});
  });
  it('checks each rule', () => {
    expect(checkTerm({ ...good, name: ' ', starts_on: '', ends_on: '2026-13-01' }, w)).toEqual({
      name: 'name',
      starts_on: 'req starts_on',
      ends_on: 'bad ends_on',
    });
    expect(checkTerm({ ...good, ends_on: '2026-09-01' }, w)).toEqual({ ends_on: 'ends first' });
    expect(checkTerm({ ...good, onboarding_closes_at: '' }, w)).toEqual({ onboarding_closes_at: 'both onboarding' });
    expect(checkTerm({ ...good, returning_opens_at: '2026-10-01 10:00' }, w)).toEqual({ returning_closes_at: 'both returning' });
    expect(checkTerm({ ...good, onboarding_closes_at: '2026-09-01 09:00' }, w)).toEqual({ onboarding_closes_at: 'order onboarding' });
    expect(checkTerm({ ...good, onboarding_opens_at: 'soon' }, w)).toEqual({ onboarding_opens_at: 'time onboarding_opens_at' });
  });
  it('creates with every field given and edits only what changed', () => {
    expect(bodyFor(good, null)).toEqual({
      name: 'Fall 2026',
      starts_on: '2026-09-01',
      ends_on: '2026-12-20',
      onboarding_opens_at: term.onboarding_opens_at,
      onboarding_closes_at: term.onboarding_closes_at,
    });
    expect(valuesOf(term).onboarding_opens_at).toBe('2026-09-01T09:00');
    expect(bodyFor(valuesOf(term), term)).toBeNull();
    expect(bodyFor({ ...valuesOf(term), onboarding_closes_at: '2026-09-20T17:00', returning_opens_at: '' }, term)).toEqual({
      onboarding_closes_at: new Date(2026, 8, 20, 17, 0).toISOString(),
    });
    expect(bodyFor({ ...valuesOf(term), onboarding_opens_at: '', onboarding_closes_at: '' }, term)).toEqual({
      onboarding_opens_at: null,
      onboarding_closes_at: null,
    });
  });
  it('says whether a window is open now', () => {
    const now = new Date('2026-09-10T00:00:00Z');
    expect(windowState(term.onboarding_opens_at, term.onboarding_closes_at, now)).toBe('open');
    expect(windowState(term.onboarding_opens_at, term.onboarding_closes_at, new Date('2026-01-01T00:00:00Z'))).toBe('upcoming');
    expect(windowState(term.onboarding_opens_at, term.onboarding_closes_at, new Date('2027-01-01T00:00:00Z'))).toBe('closed');
    expect(windowState(null, null, now)).toBe('unset');
  });
});
