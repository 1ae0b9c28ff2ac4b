// A refused status change in words: the move the status machine refuses
// ("cannot move from a to b") with the statuses' names, the server's own
// message for a conflict of interest or an accepted offer, and the usual
// words for anything else (offline, busy, a server fault).
import { hiring as t } from '$lib/i18n/hiring';
import { ApiError } from '$lib/services/api';
import { errorText } from '$lib/utilities/forms';

export function refusal(err: unknown): string {
  if (!(err instanceof ApiError) || (err.status !== 403 && err.status !== 404 && err.status !== 409)) return errorText(err);
  const names: Record<string, string> = t.statuses;
  const move = /^cannot move from (\w+) to (\w+)$/.exec(err.detail ?? '');
  const from = names[move?.[1] ?? ''];
  const to = names[move?.[2] ?? ''];
  if (from && to) return t.board.cannotMove(from, to);
  if (err.status === 404 || !err.detail) return t.board.refused[err.status];
  return /[.!?]$/.test(err.detail) ? err.detail : `${err.detail}.`;
}
