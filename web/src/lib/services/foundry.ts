// The Foundry: the project templates and teams on the code host, the
// launch of a new project, and the launch history with each launch's
// steps and its repository's Actions runs.
import { call, client } from './client';
import type { Body, Page, Schemas } from './types';

export type Project = Schemas['FoundryProject'];
export type Run = Schemas['CodehostRun'];
export type Template = Schemas['CodehostTemplate'];
export type CodehostTeam = Schemas['CodehostTeam'];
export type LaunchBody = Body<'launchFoundryProject'>;

// relaunchBody is the launch of a failed project again, as a new project
// with the same name and options.
export function relaunchBody(p: Project): LaunchBody {
  const o = p.options;
  return { name: p.name, description: o.description, project_type: o.project_type, database: o.database, redis: o.redis, s3: o.s3, team_slug: o.team_slug, private: o.private };
}

// Every service call here is refused with reason "unconfigured" when the
// deployment has no code host.
export const foundry = {
  templates: async (): Promise<Template[]> => (await call(client.GET('/api/codehost/templates'))).templates,
  teams: async (): Promise<CodehostTeam[]> => (await call(client.GET('/api/codehost/teams'))).teams,
  projects: async (page: number, pageSize: number): Promise<Page<Project>> => {
    const r = await call(client.GET('/api/codehost/projects', { params: { query: { page, page_size: pageSize } } }));
    return { items: r.projects, total: r.total };
  },
  // history is every launch (up to 2,000): the names in use.
  history: async (): Promise<Project[]> => {
    const out: Project[] = [];
    for (let page = 1; page <= 40; page++) {
      const r = await foundry.projects(page, 50);
      out.push(...r.items);
      if (r.items.length === 0 || out.length >= r.total) break;
    }
    return out;
  },
  // project is one launch: kind "notFound" when there is none.
  project: (id: string): Promise<Project> => call(client.GET('/api/codehost/projects/{id}', { params: { path: { id } } })),
  runs: async (id: string): Promise<Run[]> => (await call(client.GET('/api/codehost/projects/{id}/runs', { params: { path: { id } } }))).runs,
  // launch records the project and answers its id: kind "conflict" when
  // the name is taken, "invalid" with details by field.
  launch: async (body: LaunchBody): Promise<string> => (await call(client.POST('/api/codehost/foundry/launch', { body }))).project_id,
};
