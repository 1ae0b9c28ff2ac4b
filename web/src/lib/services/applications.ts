// Applications: the applicant's own (the draft, its autosave, the resume,
// submitting, the answer to an offer, the questions that apply) and the
// admins' side (the table of every application, one application in full,
// the bulk decision).
import { call, client } from './client';
import { upload } from './transfer';
import type { Page, Schemas, Upload } from './types';

export type Application = Schemas['Application'];
export type OwnerApplication = Schemas['OwnerApplication'];
export type ApplicationPatch = Schemas['ApplicationPatch'];
export type Question = Schemas['Question'];
export type AdminRow = Schemas['AdminApplicationRow'];
export type Decision = 'offer' | 'waitlist' | 'reject';
export type Resume = { name: string; url: string | null; preview_url: string | null };
export type Details = {
  application: Schemas['ReviewApplication'];
  reviews: Schemas['AdminReview'][];
  reviews_hidden: boolean;
  history: Schemas['ApplicationHistoryEntry'][];
};

export const adminSorts = ['created_at', 'name', 'email', 'university', 'gender', 'reviews', 'score', 'normalized_score'] as const;
export type AdminSort = (typeof adminSorts)[number];

// AdminQuery is the applications table's view: a search, a status, a
// sort and a page.
export type AdminQuery = { q: string; status: '' | 'draft' | 'submitted'; sort: AdminSort; order: 'asc' | 'desc'; page: number; pageSize: number };

// adminParams is the table's view as the list endpoint's query: an empty
// search or status is left out.
export function adminParams(s: AdminQuery) {
  return { q: s.q.trim() || undefined, status: s.status || undefined, sort: s.sort, order: s.order, page: s.page, page_size: s.pageSize };
}

export const applications = {
  // mine is the caller's application, or null before they start one.
  mine: (): Promise<OwnerApplication | null> => call(client.GET('/api/applications')),
  // create makes the caller's draft: kind "conflict" when another device
  // made it first.
  create: (profileId: string): Promise<Application> => call(client.POST('/api/applications', { body: { profile_id: profileId } })),
  // update saves changed fields: kind "invalid" with details by field,
  // "conflict" once the application is submitted.
  update: async (patch: ApplicationPatch): Promise<Application> => (await call(client.PATCH('/api/applications', { body: patch }))).application,
  // submit refuses with kind "invalid" (details by field) or "conflict"
  // (submitted already).
  submit: () => call(client.POST('/api/applications/submit')),
  // rsvp answers an offer: kind "conflict" once the deadline has passed.
  rsvp: async (attending: boolean): Promise<Application> => (await call(client.POST('/api/applications/rsvp', { body: { attending } }))).application,
  // resume is the stored resume's name and links, or null.
  resume: async (): Promise<Resume | null> => {
    const r = await call(client.GET('/api/applications/resumes'));
    return r.resume ? { name: r.resume.name, url: r.url, preview_url: r.preview_url } : null;
  },
  // uploadResume sends a resume with progress: kind "tooLarge",
  // "unsupported", "conflict" (submitted meanwhile) or "aborted".
  uploadResume: (file: File, onProgress: (fraction: number) => void): Upload<unknown> => {
    const form = new FormData();
    form.append('file', file);
    return upload<unknown>('/api/applications/resumes', form, onProgress);
  },
  // questions are the question-bank questions that apply to the
  // caller's saved positions.
  questions: async (): Promise<Question[]> => (await call(client.GET('/api/applications/questions'))).questions,

  list: async (s: AdminQuery): Promise<Page<AdminRow>> => {
    const r = await call(client.GET('/api/admin/applications', { params: { query: adminParams(s) } }));
    return { items: r.applications, total: r.total };
  },
  // details is one application in full: kind "notFound" when it is gone.
  details: (id: string): Promise<Details> => call(client.GET('/api/admin/applications/{id}', { params: { path: { id } } })),
  // decide records one decision for many applications, once per key:
  // kind "invalid" (details name the refused ids), "notFound" (one is
  // gone), "conflict" (changed meanwhile), "unprocessable" (the key was
  // used for another decision).
  decide: async (key: string, ids: string[], decision: Decision, deadline: string | null): Promise<number> =>
    (
      await call(
        client.POST('/api/admin/applications/decisions', {
          params: { header: { 'Idempotency-Key': key } },
          body: { application_ids: ids, decision, rsvp_deadline: deadline ?? undefined },
        }),
      )
    ).updated,
};
