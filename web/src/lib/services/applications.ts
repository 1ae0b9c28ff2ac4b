// Applications: the applicant's own (the draft, its autosave, the resume,
// submitting, the answer to an offer, the questions that apply, earlier
// editions' applications) and the admins' side, one edition at a time
// (the table of its applications, one application in full, the bulk
// decision).
import { call, client } from './client';
import { ServiceError } from './errors';
import { upload } from './transfer';
import type { HackathonRef } from './hackathons';
import type { Page, Schemas, Upload } from './types';

export type Application = Schemas['Application'];
export type OwnerApplication = Schemas['OwnerApplication'];
export type ApplicationPatch = Schemas['ApplicationPatch'];
export type Question = Schemas['Question'];
export type AdminRow = Schemas['AdminApplicationRow'];
export type EarlierApplication = Schemas['EarlierApplication'];
// AdminPage is a page of the table and the edition it is of.
export type AdminPage = Page<AdminRow> & { hackathon: HackathonRef };
export type Decision = 'offer' | 'waitlist' | 'reject';
// RsvpExtras: what an attending answer confirms besides itself.
export type RsvpExtras = { tshirt_size?: string | null; dietary_restrictions?: string | null; waiver_accepted?: boolean };
export type Ticket = { url: string; checked_in_at: string | null };
export type Resume = { name: string; url: string | null; preview_url: string | null };
export type Details = {
  application: Schemas['ReviewApplication'];
  reviews: Schemas['AdminReview'][];
  reviews_hidden: boolean;
  history: Schemas['ApplicationHistoryEntry'][];
};

export const adminSorts = ['created_at', 'name', 'email', 'university', 'gender', 'reviews', 'score', 'normalized_score'] as const;
export type AdminSort = (typeof adminSorts)[number];

// The decisions and RSVPs the table filters by: 'none' is not decided on,
// 'pending' an offer not answered yet.
export const decisionFilters = ['offer', 'waitlist', 'reject', 'none'] as const;
export const rsvpFilters = ['attending', 'declined', 'expired', 'pending'] as const;

// AdminQuery is the applications table's view: the edition ('' for the
// current one), a search, a status, a decision, an RSVP, a sort and a page.
export type AdminQuery = {
  hackathon: string;
  q: string;
  status: '' | 'draft' | 'submitted';
  decision: '' | (typeof decisionFilters)[number];
  rsvp: '' | (typeof rsvpFilters)[number];
  sort: AdminSort;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

// adminFilters is the table's view without its page as the list and
// export endpoints' query: the current edition and an empty search or
// filter are left out.
function adminFilters(s: Omit<AdminQuery, 'page' | 'pageSize'>) {
  return {
    hackathon: s.hackathon || undefined,
    q: s.q.trim() || undefined,
    status: s.status || undefined,
    decision: s.decision || undefined,
    rsvp: s.rsvp || undefined,
    sort: s.sort,
    order: s.order,
  };
}

// adminParams is the table's view as the list endpoint's query.
export function adminParams(s: AdminQuery) {
  return { ...adminFilters(s), page: s.page, page_size: s.pageSize };
}

// adminExportUrl is the address of the CSV of every row the view's filters
// keep, in its order (no pages).
export function adminExportUrl(s: AdminQuery): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(adminFilters(s))) if (v !== undefined) q.set(k, v);
  return `/api/admin/applications/export.csv?${q}`;
}

// scope is an edition as a staff route's query: none for the current one.
const scope = (hackathon: string) => (hackathon ? { hackathon } : {});

// DecideOptions: the edition of the batch ('' for the current one), and
// whether its offers may pass the edition's capacity (only once the admin
// said so after the 409 "Over capacity").
export type DecideOptions = { hackathon: string; allowOverCapacity?: boolean };

export const applications = {
  // mine is the caller's application, or null before they start one.
  mine: (): Promise<OwnerApplication | null> => call(client.GET('/api/applications')),
  // create makes the caller's draft in the current edition, blank or
  // started from one of their earlier applications (copyFrom): kind
  // "conflict" when another device made it first, "forbidden" (reason
  // applicationsClosed) outside the application window.
  create: (profileId: string, copyFrom?: string): Promise<Application> =>
    call(client.POST('/api/applications', { body: copyFrom ? { profile_id: profileId, copy_from: copyFrom } : { profile_id: profileId } })),
  // history is the caller's applications of earlier editions, the latest
  // edition first.
  history: async (): Promise<EarlierApplication[]> => (await call(client.GET('/api/applications/history'))).applications,
  // update saves changed fields: kind "invalid" with details by field,
  // "conflict" once the application is submitted.
  update: async (patch: ApplicationPatch): Promise<Application> => (await call(client.PATCH('/api/applications', { body: patch }))).application,
  // submit refuses with kind "invalid" (details by field) or "conflict"
  // (submitted already).
  submit: () => call(client.POST('/api/applications/submit')),
  // rsvp answers an offer, with an attending answer's confirmed T-shirt
  // size and diet and the edition's waiver accepted: kind "invalid"
  // (details by field: waiver_accepted when the edition has a waiver),
  // "conflict" once the deadline has passed.
  rsvp: async (attending: boolean, extras: RsvpExtras = {}): Promise<Application> =>
    (await call(client.POST('/api/applications/rsvp', { body: { attending, ...extras } }))).application,
  // ticket is the attending caller's ticket (its signed link and whether
  // they are checked in), or null without one (404 "No ticket").
  ticket: async (): Promise<Ticket | null> => {
    try {
      return await call(client.GET('/api/applications/ticket'));
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'notFound') return null;
      throw e;
    }
  },
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

  // list is a page of one edition's applications (kind "notFound" for an
  // unknown edition).
  list: async (s: AdminQuery): Promise<AdminPage> => {
    const r = await call(client.GET('/api/admin/applications', { params: { query: adminParams(s) } }));
    return { items: r.applications, total: r.total, hackathon: r.hackathon };
  },
  // details is one application of an edition ('' for the current one) in
  // full: kind "notFound" when it is gone or of another edition.
  details: (id: string, hackathon = ''): Promise<Details> =>
    call(client.GET('/api/admin/applications/{id}', { params: { path: { id }, query: scope(hackathon) } })),
  // decide records one decision for many applications of an edition, once
  // per key: kind "invalid" (details name the refused ids), "notFound"
  // (one is gone), "conflict" (changed meanwhile; reason overCapacity when
  // the offers would pass the edition's capacity), "unprocessable" (the
  // key was used for another decision).
  decide: async (key: string, ids: string[], decision: Decision, deadline: string | null, o: DecideOptions): Promise<number> =>
    (
      await call(
        client.POST('/api/admin/applications/decisions', {
          params: { header: { 'Idempotency-Key': key }, query: scope(o.hackathon) },
          body: {
            application_ids: ids,
            decision,
            rsvp_deadline: deadline ?? undefined,
            ...(o.allowOverCapacity ? { allow_over_capacity: true } : {}),
          },
        }),
      )
    ).updated,
};
