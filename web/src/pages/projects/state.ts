// Pure logic of the projects pages: which page the path names, the
// history's list state in the URL, the refresh schedule of a running
// launch and what changed between two reads (announced to a screen reader).

import { param, urlQuery } from '$lib/utilities/urlQuery';

export type Route = { kind: 'list' } | { kind: 'project'; id: string };

// route reads /nexus/projects or /nexus/projects/{id}.
export function route(pathname: string): Route {
  const m = /^\/nexus\/projects\/([^/]+)\/?$/.exec(pathname);
  return m ? { kind: 'project', id: decodeURIComponent(m[1]!) } : { kind: 'list' };
}

// The history's page and page size live in the URL.
export const listQuery = urlQuery({ page: param.page(), pageSize: param.pageSize() });
export const defaultList = listQuery.defaults;

// The refresh of a running launch backs off while nothing changes (from
// one second up to ten) and starts again from one second when something
// does; a failed read waits longer still (up to thirty).
export const firstDelay = 1000;
export const maxDelay = 10_000;
export const maxErrorDelay = 30_000;

export function nextDelay(prev: number, outcome: 'changed' | 'same' | 'failed'): number {
  if (outcome === 'changed') return firstDelay;
  if (outcome === 'failed') return Math.min(Math.max(prev, firstDelay) * 2, maxErrorDelay);
  return Math.min(Math.round(Math.max(prev, firstDelay) * 1.5), maxDelay);
}

type StepLike = { name: string; status: string; started_at: string | null; finished_at: string | null; detail: string };
type ProjectLike = { status: string; steps: readonly StepLike[]; run_url: string | null; repository_url: string | null };

// fingerprint is what a reader sees of a project; equal prints, no change.
export function fingerprint(p: ProjectLike): string {
  return JSON.stringify([p.status, p.run_url, p.repository_url, p.steps.map((s) => [s.name, s.status, s.started_at, s.finished_at, s.detail])]);
}

export type Change = { kind: 'step'; name: string; status: string } | { kind: 'project'; status: string };

// changes lists the steps whose status moved and the project's own end.
export function changes(prev: ProjectLike | null, next: ProjectLike): Change[] {
  if (!prev) return [];
  const out: Change[] = [];
  for (const s of next.steps) {
    const before = prev.steps.find((x) => x.name === s.name);
    if (!before || before.status !== s.status) out.push({ kind: 'step', name: s.name, status: s.status });
  }
  if (prev.status !== next.status && next.status !== 'running') out.push({ kind: 'project', status: next.status });
  return out;
}

// linkText is a code host address as a reader scans it: the path without
// the host ("org/name"), a run as "org/name run 123".
export function linkText(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname.replace(/^\/+|\/+$/g, '');
  } catch {
    return url;
  }
  if (!path) return url;
  const run = /^(.+)\/actions\/runs\/(\d+)$/.exec(path);
  return run ? `${run[1]} run ${run[2]}` : path;
}
