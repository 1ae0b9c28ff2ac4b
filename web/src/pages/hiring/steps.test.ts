import { describe, expect, it } from 'vitest';
import { following, steps, stepStates } from './steps';

const states = (status: Parameters<typeof stepStates>[0], step: Parameters<typeof stepStates>[1]) =>
  stepStates(status, step).map((s) => s.state);

describe('stepStates', () => {
  it('lists the workflow steps in order, without done', () => {
    expect(steps).toEqual(['load', 'promote', 'demote', 'welcome', 'record']);
  });
  it('waits on every step before the run starts', () => {
    expect(states('running', null)).toEqual(['waiting', 'waiting', 'waiting', 'waiting', 'waiting']);
  });
  it('marks the steps before the current one done', () => {
    expect(states('running', 'demote')).toEqual(['done', 'done', 'running', 'waiting', 'waiting']);
    expect(states('running', 'load')).toEqual(['running', 'waiting', 'waiting', 'waiting', 'waiting']);
  });
  it('has every step done once completed', () => {
    expect(states('completed', 'done')).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(states('running', 'done')).toEqual(['done', 'done', 'done', 'done', 'done']);
  });
  it('shows where a failed run stopped', () => {
    expect(states('failed', 'welcome')).toEqual(['done', 'done', 'done', 'failed', 'waiting']);
    expect(states('failed', null)).toEqual(['waiting', 'waiting', 'waiting', 'waiting', 'waiting']);
  });
});

describe('following', () => {
  it('follows only a running finalization', () => {
    expect(following('running')).toBe(true);
    expect(following('none')).toBe(false);
    expect(following('completed')).toBe(false);
    expect(following('failed')).toBe(false);
  });
});
