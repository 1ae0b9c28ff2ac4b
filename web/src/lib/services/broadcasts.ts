// Broadcasts (superadmin): counting who an audience reaches, sending a
// broadcast once per key, following and cancelling it, and the list of
// those sent before.
import type { ServiceError } from './errors';
import { call, client } from './client';
import type { Body, Page, Schemas } from './types';

export type Broadcast = Schemas['Broadcast'];
export type Audience = Body<'createBroadcast'>['audience'];
export type AudienceKind = Audience['kind'];
export type Decision = NonNullable<Audience['status']>;
export type Draft = Schemas['BroadcastDraft'];
export type RenderedEmail = { subject: string; text: string; html: string };

// audienceOf is the audience as the API takes it: a term only for the
// members' audiences (none: the active term), a decision only for the
// applicants ('any': every applicant).
export function audienceOf(kind: AudienceKind, termId: string, decision: Decision | 'any'): Audience {
  const byTerm = kind === 'members' || kind === 'paid_members';
  return { kind, term_id: byTerm && termId ? termId : undefined, status: kind === 'applicants' && decision !== 'any' ? decision : undefined };
}

// audienceDetails picks the server's reasons about the audience out of a
// refusal's details, by the form's field.
export function audienceDetails(e: ServiceError): { audience?: string; term?: string; decision?: string } {
  const d = e.details;
  const out: { audience?: string; term?: string; decision?: string } = {};
  const audience = d['audience.kind'] ?? d['audience'];
  if (audience) out.audience = audience;
  if (d['audience.term_id']) out.term = d['audience.term_id'];
  if (d['audience.status']) out.decision = d['audience.status'];
  return out;
}

export const broadcasts = {
  // preview counts the recipients: reason "noActiveTerm" or
  // "termNotFound", kind "invalid" with details by field.
  preview: async (audience: Audience, marketing: boolean): Promise<number> =>
    (await call(client.POST('/api/admin/broadcasts/preview', { body: { audience, marketing } }))).recipients,
  // send starts the broadcast once per key: the refusals of preview, and
  // kind "unprocessable" for a key used with another broadcast.
  send: (key: string, body: Body<'createBroadcast'>) =>
    call(client.POST('/api/admin/broadcasts', { params: { header: { 'Idempotency-Key': key } }, body })),
  // render is the email the words make, as a recipient gets it (the
  // caller's own unsubscribe link in place of each recipient's): kind
  // "invalid" with details.subject or details.body.
  render: (draft: Draft): Promise<RenderedEmail> => call(client.POST('/api/admin/broadcasts/render', { body: draft })),
  // test sends that email to the caller alone and answers where it went;
  // the refusals of render.
  test: async (draft: Draft): Promise<string> => (await call(client.POST('/api/admin/broadcasts/test', { body: draft }))).to,
  get: (id: string): Promise<Broadcast> => call(client.GET('/api/admin/broadcasts/{id}', { params: { path: { id } } })),
  // cancel refuses with kind "conflict" once the broadcast has ended.
  cancel: (id: string): Promise<Broadcast> => call(client.POST('/api/admin/broadcasts/{id}/cancel', { params: { path: { id } } })),
  list: async (page: number, pageSize: number): Promise<Page<Broadcast>> => {
    const r = await call(client.GET('/api/admin/broadcasts', { params: { query: { page, page_size: pageSize } } }));
    return { items: r.items, total: r.total };
  },
};
