// The list endpoints' queries, built from the pages' views: an empty
// search or filter is left out, the page size is the API's page_size.
import { describe, expect, it } from 'vitest';
import { adminParams } from './applications';
import { listParams as emailParams } from './emails';
import { listParams as membershipParams } from './memberships';
import { listParams as receiptParams } from './receipts';
import { listParams as selectionParams } from './selections';
import { listParams as userParams } from './users';

describe('list queries', () => {
  it('applications: the edition, a search, a status, a decision, an RSVP, the sort and the page', () => {
    expect(adminParams({ hackathon: '', q: '  ', status: '', decision: '', rsvp: '', sort: 'created_at', order: 'desc', page: 1, pageSize: 25 })).toEqual({
      hackathon: undefined, q: undefined, status: undefined, decision: undefined, rsvp: undefined, sort: 'created_at', order: 'desc', page: 1, page_size: 25,
    });
    const edition = '0b6f1c5e-8a55-4f0b-9b7d-2a3c4d5e6f70';
    const s = { hackathon: edition, q: ' ada ', status: 'submitted', decision: 'offer', rsvp: 'pending', sort: 'score', order: 'asc', page: 3, pageSize: 10 } as const;
    expect(adminParams(s)).toMatchObject({ hackathon: edition, q: 'ada', status: 'submitted', decision: 'offer', rsvp: 'pending', page_size: 10 });
  });
  it('memberships and users: a trimmed search and a filter', () => {
    expect(membershipParams({ q: ' jane ', status: 'paid', page: 2, pageSize: 50 })).toEqual({ q: 'jane', status: 'paid', page: 2, page_size: 50 });
    expect(userParams({ q: '', role: '', page: 1, pageSize: 25 })).toEqual({ q: undefined, role: undefined, page: 1, page_size: 25 });
  });
  it('receipts and emails: filters left out when empty', () => {
    expect(receiptParams({ status: '', page: 1, pageSize: 25 })).toEqual({ status: undefined, page: 1, page_size: 25 });
    expect(emailParams({ to: ' a@b.test ', kind: '', page: 1, pageSize: 10 })).toEqual({ to: 'a@b.test', kind: undefined, page: 1, page_size: 10 });
  });
  it('selections: the position as position_id, the term as term_id (none: the hiring term)', () => {
    const pos = '0b6f1c5e-8a55-4f0b-9b7d-2a3c4d5e6f70';
    const term = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    expect(selectionParams({ termId: '', q: ' ann ', status: '', position: pos, page: 1, pageSize: 10 })).toEqual({
      term_id: undefined, q: 'ann', status: undefined, position_id: pos, page: 1, page_size: 10,
    });
    expect(selectionParams({ termId: term, q: '', status: 'wanted', position: '', page: 2, pageSize: 25 })).toMatchObject({ term_id: term, status: 'wanted' });
  });
});
