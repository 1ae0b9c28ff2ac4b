// A finalization's steps as the page lists them, each with its state,
// from what GET /api/applications/hiring/finalization answers.
import { schemaFinalizationProgress } from '$lib/rules.gen';
import type { Schemas } from '$lib/services/types';

type Key = NonNullable<Schemas['FinalizationProgress']['step']>;
export type Step = Exclude<Key, 'done'>;
export type StepState = 'done' | 'running' | 'waiting' | 'failed';
export type RunStatus = 'none' | 'running' | 'completed' | 'failed';

// steps in the order the workflow runs them (the server's own list).
export const steps: readonly Step[] = schemaFinalizationProgress.step.enum.filter((s): s is Step => s !== 'done');

// stepStates says where each step is: before the current one done, the
// current one running (or where a failed run stopped), the rest waiting.
// A completed run has every step done; a run that has not started yet (no
// step) has every step waiting.
export function stepStates(status: RunStatus, step: Key | null): { step: Step; state: StepState }[] {
  const at = status === 'completed' || step === 'done' ? steps.length : step === null ? -1 : steps.indexOf(step);
  return steps.map((s, i) => {
    if (at === -1 || i > at) return { step: s, state: 'waiting' };
    if (i < at) return { step: s, state: 'done' };
    return { step: s, state: status === 'failed' ? 'failed' : 'running' };
  });
}

// following reports whether the page keeps asking for the run's progress.
export function following(status: RunStatus): boolean {
  return status === 'running';
}
