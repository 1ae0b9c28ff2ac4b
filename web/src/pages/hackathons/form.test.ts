import { describe, expect, it } from 'vitest';
import { parseLocal } from '$lib/utilities/localTime';
import { bodyFor, checkEdition, orderProblems, serverProblems, valuesOf, type AdminHackathon, type Values } from './form';

const w = {
  nameRequired: 'name',
  nameTooLong: (max: number) => `name ${max}`,
  opensRequired: 'opens',
  timeInvalid: (f: string) => `time ${f}`,
  order: (later: string, earlier: string) => `${later} after ${earlier}`,
  closePast: 'past',
  capacityInvalid: (max: number) => `capacity ${max}`,
};
const now = new Date(2027, 0, 1, 12, 0);

function values(over: Partial<Values> = {}): Values {
  return { ...valuesOf(null), name: 'HackMUN 2027', applications_open_at: '2027-01-10 09:00', ...over };
}

function edition(over: Partial<AdminHackathon> = {}): AdminHackathon {
  return {
    id: '0b6f1c5e-8a55-4f0b-9b7d-2a3c4d5e6f70',
    name: 'HackMUN 2027',
    applications_open_at: parseLocal('2027-01-10 09:00')!,
    applications_close_at: parseLocal('2027-02-10 17:00')!,
    starts_at: null,
    ends_at: null,
    capacity: 120,
    phase: 'upcoming',
    announce: false,
    current: false,
    purge_at: null,
    created_at: '2026-12-01T00:00:00Z',
    updated_at: '2026-12-01T00:00:00Z',
    ...over,
  };
}

describe('checkEdition', () => {
  it('needs a name and an opening', () => {
    expect(checkEdition(values({ name: ' ', applications_open_at: '' }), w, true, now)).toEqual({ name: 'name', applications_open_at: 'opens' });
    expect(checkEdition(values({ name: 'x'.repeat(101) }), w, true, now)).toEqual({ name: 'name 100' });
  });
  it('reads dates and times in the reader’s zone and a whole capacity', () => {
    expect(checkEdition(values({ starts_at: '2027-13-01 10:00', capacity: '2.5' }), w, true, now)).toEqual({ starts_at: 'time starts_at', capacity: 'capacity 100000' });
    expect(checkEdition(values({ capacity: '0' }), w, true, now)).toEqual({ capacity: 'capacity 100000' });
    expect(checkEdition(values({ capacity: '100001' }), w, true, now)).toEqual({ capacity: 'capacity 100000' });
    expect(checkEdition(values({ capacity: ' 250 ' }), w, true, now)).toEqual({});
  });
  it('keeps the dates in order, naming the later one; the event may start at the close', () => {
    expect(checkEdition(values({ applications_close_at: '2027-01-10 09:00' }), w, true, now)).toEqual({
      applications_close_at: 'applications_close_at after applications_open_at',
    });
    const v = values({ applications_close_at: '2027-02-10 17:00', starts_at: '2027-02-10 17:00', ends_at: '2027-02-09 17:00' });
    expect(checkEdition(v, w, true, now)).toEqual({ ends_at: 'ends_at after applications_close_at' });
    expect(checkEdition({ ...v, ends_at: '2027-02-12 17:00' }, w, true, now)).toEqual({});
  });
  it('refuses a close already past on creation only', () => {
    const v = values({ applications_open_at: '2026-11-01 09:00', applications_close_at: '2026-12-01 09:00' });
    expect(checkEdition(v, w, true, now)).toEqual({ applications_close_at: 'past' });
    expect(checkEdition(v, w, false, now)).toEqual({});
  });
});

describe('orderProblems', () => {
  it('names the first earlier date each later one is not after', () => {
    const at = { applications_open_at: '2027-01-10T00:00:00Z', applications_close_at: null, starts_at: '2027-01-05T00:00:00Z', ends_at: '2027-01-01T00:00:00Z' };
    expect(orderProblems((f) => at[f], w)).toEqual({ starts_at: 'starts_at after applications_open_at', ends_at: 'ends_at after applications_open_at' });
  });
});

describe('bodyFor', () => {
  it('creates with what is set', () => {
    expect(bodyFor(values({ applications_close_at: '2027-02-10 17:00', capacity: '120', announce: true }), null)).toEqual({
      name: 'HackMUN 2027',
      applications_open_at: parseLocal('2027-01-10 09:00'),
      applications_close_at: parseLocal('2027-02-10 17:00'),
      capacity: 120,
      announce: true,
    });
  });
  it('edits only what changed, clearing with null', () => {
    const was = edition();
    expect(bodyFor(valuesOf(was), was)).toBeNull();
    expect(bodyFor({ ...valuesOf(was), applications_close_at: '', capacity: '', starts_at: '2027-03-01 09:00' }, was)).toEqual({
      applications_close_at: null,
      starts_at: parseLocal('2027-03-01 09:00'),
      capacity: null,
    });
    expect(bodyFor({ ...valuesOf(was), name: ' HackMUN 2027b ', announce: true }, was)).toEqual({ name: 'HackMUN 2027b', announce: true });
  });
});

describe('serverProblems', () => {
  const labels = { name: 'Name', applications_open_at: 'Applications open', applications_close_at: 'Applications close', starts_at: 'Starts', ends_at: 'Ends', capacity: 'Capacity', announce: 'Announce' };
  const sentence = (label: string, reason: string) => `${label} ${reason}.`;
  it('words the order and the past close as the browser does', () => {
    expect(
      serverProblems(
        { starts_at: 'must be after applications_close_at', applications_close_at: 'must be in the future', capacity: 'must be from 1 to 100000', current: 'x' },
        w,
        labels,
        sentence,
      ),
    ).toEqual({ starts_at: 'starts_at after applications_close_at', applications_close_at: 'past', capacity: 'Capacity must be from 1 to 100000.' });
  });
});
