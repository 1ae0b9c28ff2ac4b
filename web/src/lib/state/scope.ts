// An exec's scope on the hiring pages: a VP works on their subteam's
// positions, a President on every subteam's (subteam null). Without the
// positions the pages offer only "Any".
import { positions, type Position } from '../services/positions';
import { isPresident, loadSession } from './session.svelte';

export type Scope = { subteam: string | null; positions: Position[] };

// execScope is the caller's scope among a term's positions ('' the hiring
// term's).
export async function execScope(termId = ''): Promise<Scope> {
  try {
    const [me, list] = await Promise.all([loadSession(), positions.list(termId)]);
    return { subteam: isPresident(me) ? null : (me?.exec_role?.subteam ?? null), positions: list };
  } catch {
    return { subteam: null, positions: [] };
  }
}
