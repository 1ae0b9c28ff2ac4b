import { describe, expect, it } from 'vitest';
import { changes, fingerprint, linkText, listQuery as query, maxDelay, maxErrorDelay, nextDelay, route } from './state';

const parseList = query.parse;
const listQuery = query.format;

const step = (name: string, status: string) => ({ name, status, started_at: null, finished_at: null, detail: '' });
const project = (status: string, ...steps: ReturnType<typeof step>[]) => ({ status, steps, run_url: null, repository_url: null });

describe('route', () => {
  it('reads the list and a project', () => {
    expect(route('/nexus/projects')).toEqual({ kind: 'list' });
    expect(route('/nexus/projects/')).toEqual({ kind: 'list' });
    expect(route('/nexus/projects/abc-1')).toEqual({ kind: 'project', id: 'abc-1' });
    expect(route('/nexus/projects/abc/')).toEqual({ kind: 'project', id: 'abc' });
  });
});

describe('list state', () => {
  it('reads page and page size, falling back to defaults', () => {
    expect(parseList('')).toEqual({ page: 1, pageSize: 25 });
    expect(parseList('?page=3&page_size=10')).toEqual({ page: 3, pageSize: 10 });
    expect(parseList('?page=0&page_size=7')).toEqual({ page: 1, pageSize: 25 });
    expect(parseList('?page=2.5&page_size=abc')).toEqual({ page: 1, pageSize: 25 });
  });
  it('writes only what differs from the default', () => {
    expect(listQuery({ page: 1, pageSize: 25 })).toBe('');
    expect(listQuery({ page: 2, pageSize: 50 })).toBe('?page=2&page_size=50');
    expect(parseList(listQuery({ page: 4, pageSize: 10 }))).toEqual({ page: 4, pageSize: 10 });
  });
});

describe('nextDelay', () => {
  it('backs off while nothing changes, up to the cap', () => {
    let d = 1000;
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) seen.push((d = nextDelay(d, 'same')));
    expect(seen[0]).toBe(1500);
    expect(seen.every((x, i) => i === 0 || x >= seen[i - 1]!)).toBe(true);
    expect(d).toBe(maxDelay);
  });
  it('starts again after a change and waits longer after a failure', () => {
    expect(nextDelay(8000, 'changed')).toBe(1000);
    expect(nextDelay(8000, 'failed')).toBe(16000);
    expect(nextDelay(20000, 'failed')).toBe(maxErrorDelay);
  });
});

describe('changes', () => {
  it('lists moved steps and the end of the project', () => {
    const a = project('running', step('create_repository', 'running'), step('grant_team', 'pending'));
    const b = project('running', step('create_repository', 'succeeded'), step('grant_team', 'running'));
    expect(changes(null, a)).toEqual([]);
    expect(changes(a, a)).toEqual([]);
    expect(changes(a, b)).toEqual([
      { kind: 'step', name: 'create_repository', status: 'succeeded' },
      { kind: 'step', name: 'grant_team', status: 'running' },
    ]);
    const c = project('failed', step('create_repository', 'succeeded'), step('grant_team', 'failed'));
    expect(changes(b, c)).toEqual([
      { kind: 'step', name: 'grant_team', status: 'failed' },
      { kind: 'project', status: 'failed' },
    ]);
  });
  it('fingerprints what a reader sees', () => {
    const a = project('running', step('create_repository', 'running'));
    expect(fingerprint(a)).toBe(fingerprint(project('running', step('create_repository', 'running'))));
    expect(fingerprint(a)).not.toBe(fingerprint(project('running', step('create_repository', 'succeeded'))));
  });
});

describe('linkText', () => {
  it('drops the host and names a run', () => {
    expect(linkText('https://github.com/club/site')).toBe('club/site');
    expect(linkText('https://github.com/club/site/actions/runs/42')).toBe('club/site run 42');
    expect(linkText('http://127.0.0.1:3000/club/site/')).toBe('club/site');
    expect(linkText('not a url')).toBe('not a url');
    expect(linkText('https://github.com/')).toBe('https://github.com/');
  });
});
