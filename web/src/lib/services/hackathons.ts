// Hackathon editions: the current one and its phase (anyone), every
// edition for the staff pages' switcher (admins), and the superadmin's
// list, creation and changes (making one current included).
import { call, client } from './client';
import type { Schemas } from './types';

export type Hackathon = Schemas['Hackathon'];
export type AdminHackathon = Schemas['AdminHackathon'];
export type HackathonRef = Schemas['HackathonRef'];
export type HackathonBody = Schemas['HackathonBody'];
export type Phase = Hackathon['phase'];
export type Volunteer = { profile_id: string; name: string; email: string; added_at: string };

export const hackathons = {
  // current is the current edition with its phase now (there always is one).
  current: async (): Promise<Hackathon> => (await call(client.GET('/api/hackathons/current'))).hackathon,
  // staff is every edition, the latest opening first (admins: the switcher).
  staff: async (): Promise<AdminHackathon[]> => (await call(client.GET('/api/hackathons'))).hackathons,
  // list is the same list for the superadmin's editions page.
  list: async (): Promise<AdminHackathon[]> => (await call(client.GET('/api/admin/hackathons'))).hackathons,
  // create and update (also making an edition current) refuse with kind
  // "invalid" (details by field), "conflict" (a name in use) or
  // "notFound".
  create: async (body: HackathonBody): Promise<AdminHackathon> => (await call(client.POST('/api/admin/hackathons', { body }))).hackathon,
  update: async (id: string, body: HackathonBody): Promise<AdminHackathon> =>
    (await call(client.PATCH('/api/admin/hackathons/{id}', { params: { path: { id } }, body }))).hackathon,
  // volunteers are the accounts that check people in at an edition's
  // door, earliest added first; addVolunteer (again is no change) and
  // removeVolunteer refuse with kind "notFound" (reason
  // hackathonNotFound or accountNotFound, or not a volunteer).
  volunteers: async (id: string): Promise<Volunteer[]> =>
    (await call(client.GET('/api/admin/hackathons/{id}/volunteers', { params: { path: { id } } }))).volunteers,
  addVolunteer: (id: string, profileId: string): Promise<unknown> =>
    call(client.PUT('/api/admin/hackathons/{id}/volunteers/{profile_id}', { params: { path: { id, profile_id: profileId } } })),
  removeVolunteer: (id: string, profileId: string): Promise<unknown> =>
    call(client.DELETE('/api/admin/hackathons/{id}/volunteers/{profile_id}', { params: { path: { id, profile_id: profileId } } })),
};
