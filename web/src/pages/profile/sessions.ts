// ordered puts the session making the request first, then the others by
// last use, newest first.
export function ordered<S extends { current: boolean; last_seen_at: string }>(sessions: readonly S[]): S[] {
  return [...sessions].sort((a, b) => {
    if (a.current !== b.current) return a.current ? -1 : 1;
    return Date.parse(b.last_seen_at) - Date.parse(a.last_seen_at);
  });
}
