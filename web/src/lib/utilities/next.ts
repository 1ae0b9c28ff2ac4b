// safeNext keeps a `next` parameter only when it is a path on this site
// (with its query, so a QR page keeps its ?sig=), percent-encoded or not.
// Absolute URLs, protocol-relative `//` and `/\` prefixes (also when they
// only appear after percent-decoding) and control characters become "/".
// The Go server applies the same rule to the next it writes.
export function safeNext(raw: string | null | undefined): string {
  let value = (raw ?? '').trim();
  for (let i = 0; i < 3 && /^%2f/i.test(value); i++) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return '/';
    }
  }
  if (!value.startsWith('/') || hostlike(value)) return '/';
  let decoded = value;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return '/';
    }
    if (hostlike(next)) return '/';
    if (next === decoded) break;
    decoded = next;
  }
  return value;
}

function hostlike(path: string): boolean {
  return /^[/\\][/\\]/.test(path) || /[\u0000-\u001f\u007f]/.test(path);
}
