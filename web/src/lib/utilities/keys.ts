// newKey is a fresh Idempotency-Key, a random UUID (version 4). It uses
// getRandomValues, which (unlike randomUUID) works outside secure
// contexts. A page makes one per confirmation and sends it with every
// retry of that confirmation, so a retry after a lost answer cannot act
// twice.
export function newKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
