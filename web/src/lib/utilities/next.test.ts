import { describe, expect, it } from 'vitest';
import { safeNext } from './next';

describe('safeNext', () => {
  const cases: [string | null, string][] = [
    [null, '/'],
    ['', '/'],
    ['/apply', '/apply'],
    ['%2Fapply', '/apply'],
    ['/admin/memberships/1?sig=abc_-', '/admin/memberships/1?sig=abc_-'],
    ['%2Fadmin%2Fmemberships%2F1%3Fsig%3Dabc', '/admin/memberships/1?sig=abc'],
    ['https://evil.example/', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['%2F%2Fevil.example', '/'],
    ['/%2Fevil.example', '/'],
    ['/%5Cevil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/apply\nx', '/'],
    ['apply', '/'],
  ];
  for (const [raw, want] of cases) {
    it(`${JSON.stringify(raw)} → ${want}`, () => expect(safeNext(raw)).toBe(want));
  }
});
