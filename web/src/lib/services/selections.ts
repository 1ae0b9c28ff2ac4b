// The exec-hiring selections in the caller's scope (a VP's subteam, a
// President's every subteam): a page of them by status, position and
// name, and the move of one to another status.
import { call, client } from './client';
import type { Page, Schemas } from './types';

export type Selection = Schemas['ReviewSelection'];
export type SelectionStatus = Schemas['SelectionStatus'];
// termId '' is the server's default, the hiring term.
export type ListQuery = { termId: string; q: string; status: SelectionStatus | ''; position: string; page: number; pageSize: number };

export function listParams(s: ListQuery) {
  return {
    term_id: s.termId || undefined,
    q: s.q.trim() || undefined,
    status: s.status || undefined,
    position_id: s.position || undefined,
    page: s.page,
    page_size: s.pageSize,
  };
}

// refusedMove reads the statuses out of a refused move's message
// ("cannot move from X to Y"), or null when it says something else.
export function refusedMove(message: string | undefined): { from: string; to: string } | null {
  const m = /^cannot move from ([a-z_]+) to ([a-z_]+)$/.exec(message ?? '');
  return m ? { from: m[1] ?? '', to: m[2] ?? '' } : null;
}

export const selections = {
  list: async (s: ListQuery): Promise<Page<Selection>> => {
    const r = await call(client.GET('/api/applications/review', { params: { query: listParams(s) } }));
    return { items: r.items, total: r.total };
  },
  // move refuses with kind "conflict" (the move is not allowed from the
  // status it has now: refusedMove reads which), "forbidden" (a conflict
  // of interest, in the server's words) or "notFound".
  move: (id: string, status: SelectionStatus) =>
    call(client.PATCH('/api/applications/review/{selection_id}', { params: { path: { selection_id: id } }, body: { status } })),
};
