// The operator's page (superadmin): readiness, the outbox, the last
// hour's errors and workflow failures, the recent failed runs and a retry
// of one, the running runs that are stuck and a cancel of one, and the
// schedules' state.
import { call, client } from './client';
import type { Ok, Schemas } from './types';

export type SystemSummary = Schemas['SystemSummary'];
export type FailedRun = Schemas['FailedRun'];
export type Erasure = Schemas['Erasure'];
export type StuckRun = Schemas['StuckRun'];
export type Stuck = Ok<'/api/admin/workflows/stuck'>;
export type ScheduleState = Schemas['ScheduleState'];
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
  // stuck is the running runs that are not moving (a workflow task that
  // keeps failing, an activity past its third attempt), with how many
  // running runs were looked at.
  stuck: (): Promise<Stuck> => call(client.GET('/api/admin/workflows/stuck')),
  // cancel asks Temporal to cancel a running run: kind "conflict" when it
  // is no longer running, "notFound" when it is gone.
  cancel: (workflowId: string) => call(client.POST('/api/admin/workflows/{workflow_id}/cancel', { params: { path: { workflow_id: workflowId } } })),
  // schedules is each recurring job's schedule: paused or not, its last
  // run and its next.
  schedules: async (): Promise<ScheduleState[]> => (await call(client.GET('/api/admin/schedules'))).schedules,
};
