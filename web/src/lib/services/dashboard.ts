// The superadmin's dashboard figures: totals, conversion rates, where
// every application stands and the RSVPs over time, per hour (1) or per
// day (24).
import { call, client } from './client';
import type { Schemas } from './types';

export type Dashboard = Schemas['Dashboard'];

export const dashboard = {
  get: (interval: 1 | 24): Promise<Dashboard> => call(client.GET('/api/admin/dashboard', { params: { query: { interval } } })),
};
