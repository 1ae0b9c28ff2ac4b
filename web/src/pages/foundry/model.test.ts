import { describe, expect, it } from 'vitest';
import { blank, firstGap, launchBody, nameProblem, problemsOf, restore, save, stepQuery, takenNames } from './model';

const parseStep = (search: string) => stepQuery.parse(search).step;

const full = () => ({ ...blank(), project_type: 'fastapi', database: 'postgresql', team_slug: 'platform', name: 'club-site' });

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
}

describe('steps in the URL', () => {
  it('reads a known step, else the first', () => {
    expect(parseStep('?step=team')).toBe('team');
    expect(parseStep('?step=nope')).toBe('type');
    expect(parseStep('')).toBe('type');
    expect(stepQuery.format({ step: 'type', change: false })).toBe('');
    expect(stepQuery.format({ step: 'review', change: false })).toBe('?step=review');
    expect(stepQuery.format({ step: 'database', change: true })).toBe('?step=database&change=1');
    expect(stepQuery.parse('?change=1')).toEqual({ step: 'type', change: true });
  });
});

describe('nameProblem', () => {
  const taken = takenNames([
    { name: 'Club-Site', status: 'succeeded' },
    { name: 'busy', status: 'running' },
    { name: 'broken', status: 'failed' },
  ]);
  it('follows the server rule', () => {
    expect(nameProblem('', taken)).toBe('required');
    expect(nameProblem('ok.name_1-2', taken)).toBeNull();
    expect(nameProblem('has space', taken)).toBe('pattern');
    expect(nameProblem(' lead', taken)).toBe('pattern');
    expect(nameProblem('caf\u00e9', taken)).toBe('pattern');
    expect(nameProblem('a'.repeat(100), taken)).toBeNull();
    expect(nameProblem('a'.repeat(101), taken)).toBe('pattern');
    expect(nameProblem('.', taken)).toBe('dots');
    expect(nameProblem('..', taken)).toBe('dots');
    expect(nameProblem('...', taken)).toBeNull();
  });
  it('refuses a name held by a running or succeeded project, in any case', () => {
    expect(nameProblem('club-site', taken)).toBe('taken');
    expect(nameProblem('BUSY', taken)).toBe('taken');
    expect(nameProblem('broken', taken)).toBeNull();
  });
});

describe('problems and gaps', () => {
  it('finds the first unanswered step', () => {
    const none = new Set<string>();
    expect(firstGap(blank(), 'type', none)).toBeNull();
    expect(firstGap(blank(), 'review', none)).toBe('type');
    expect(firstGap({ ...full(), team_slug: '' }, 'review', none)).toBe('team');
    expect(firstGap(full(), 'review', none)).toBeNull();
    expect(firstGap(full(), 'review', new Set(['club-site']))).toBe('name');
  });
  it('checks the description length', () => {
    expect(problemsOf('name', { ...full(), description: 'x'.repeat(351) }, new Set())).toEqual([{ field: 'description', kind: 'tooLong' }]);
    expect(problemsOf('type', { ...full(), project_type: 'rails' }, new Set())).toEqual([{ field: 'project_type', kind: 'required' }]);
  });
});

describe('launchBody', () => {
  it('maps the answers to the request', () => {
    expect(launchBody({ ...full(), redis: true, description: ' hi ', visibility: 'public' })).toEqual({
      name: 'club-site', description: 'hi', project_type: 'fastapi', database: 'postgresql', redis: true, s3: false, team_slug: 'platform', private: false,
    });
    expect(launchBody(full()).private).toBe(true);
  });
});

describe('storage', () => {
  it('keeps answers and ignores what does not fit', () => {
    const m = memory();
    save(m, { ...full(), redis: true });
    expect(restore(m)).toEqual({ ...full(), redis: true });
    m.setItem('hackdesk.foundry.v1', JSON.stringify({ name: 3, redis: 'yes', database: 'mongodb' }));
    expect(restore(m)).toEqual({ ...blank(), database: 'mongodb' });
    m.setItem('hackdesk.foundry.v1', '{');
    expect(restore(m)).toEqual(blank());
    expect(restore(undefined)).toEqual(blank());
  });
});
