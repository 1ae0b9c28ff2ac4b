// A refused status change in words: the move the status machine refuses
// ("cannot move from a to b") with the statuses' names, the server's own
// message for a conflict of interest or an accepted offer, and the usual
// words for anything else (offline, busy, a server fault).
import { hiring as t } from '$lib/i18n/hiring';
import { failure } from '$lib/services/errors';
import { refusedMove } from '$lib/services/selections';
import { errorText } from '$lib/utilities/forms';

export function refusal(err: unknown): string {
  const e = failure(err);
  if (e.kind !== 'forbidden' && e.kind !== 'notFound' && e.kind !== 'conflict') return errorText(err);
  const names: Record<string, string> = t.statuses;
  const move = refusedMove(e.detail);
  const from = names[move?.from ?? ''];
  const to = names[move?.to ?? ''];
  if (from && to) return t.board.cannotMove(from, to);
  if (e.kind === 'notFound' || !e.detail) return t.board.refused[e.kind];
  return /[.!?]$/.test(e.detail) ? e.detail : `${e.detail}.`;
}
