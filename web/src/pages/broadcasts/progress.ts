// Following a broadcast as it sends: how far it is, and which milestone
// (if any) a new reading of it crosses, to be announced once.
export type Reading = { status: string; total: number; sent: number; failed: number; skipped: number };
export type Milestone = 'half' | 'done' | 'cancelled';

export function handled(b: Reading): number {
  return b.sent + b.failed + b.skipped;
}

// milestone is what changed between two readings worth saying aloud:
// reaching half way, or ending.
export function milestone(before: Reading | null, after: Reading): Milestone | null {
  if (after.status === 'done' && before?.status !== 'done') return 'done';
  if (after.status === 'cancelled' && before?.status !== 'cancelled') return 'cancelled';
  if (after.status !== 'sending' || after.total === 0) return null;
  const half = after.total / 2;
  const was = before ? handled(before) : 0;
  return was < half && handled(after) >= half ? 'half' : null;
}

// sending reports whether the broadcast still needs following.
export function sending(b: Reading): boolean {
  return b.status === 'sending';
}
