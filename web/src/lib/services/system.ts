// The operator's page (superadmin): readiness, the outbox, the last
// hour's errors and workflow failures, the recent failed runs, and a
// retry of one.
import { call, client } from './client';
import type { Ok, Schemas } from './types';

export type SystemSummary = Schemas['SystemSummary'];
export type FailedRun = Schemas['FailedRun'];
export type Erasure = Schemas['Erasure'];
export type Retention = Ok<'/api/admin/retention'>;

export const system = {
  summary: (): Promise<SystemSummary> => call(client.GET('/api/admin/system')),
  // erasures are the account erasures scheduled, under way or recently
  // done, each with its workflow's progress.
  erasures: async (): Promise<Erasure[]> => (await call(client.GET('/api/admin/erasures'))).erasures,
  // retention is RETENTION_DAYS and the last retention run.
  retention: (): Promise<Retention> => call(client.GET('/api/admin/retention')),
  failedRuns: async (): Promise<FailedRun[]> => (await call(client.GET('/api/admin/workflows', { params: { query: { status: 'failed' } } }))).runs,
  // retry queues the run again and answers its new id and retry number:
  // kind "conflict" (it cannot be retried now, in the server's words) or
  // "notFound" (it is gone).
  retry: (workflowId: string) => call(client.POST('/api/admin/workflows/{workflow_id}/retry', { params: { path: { workflow_id: workflowId } } })),
};
