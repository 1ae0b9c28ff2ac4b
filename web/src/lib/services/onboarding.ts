// The exec forms (onboarding for new execs, returning for the others):
// the caller's form of a term with their stored submission, saving it,
// the headshot upload; and the VPs' side: a term's submissions, the CSV
// and the headshots ZIP.
import { call, client } from './client';
import { download, upload, type Downloaded } from './transfer';
import type { Ok, Schemas, Upload } from './types';

export type Kind = 'onboarding' | 'returning';
export type Submission = Schemas['ExecFormSubmission'];
export type ExecFormBody = Schemas['ExecFormBody'];
export type ExecForm = Ok<'/api/onboarding'>;
export type Term = Schemas['Term'];
// A submission as the review lists it (a VP's list carries the subteam).
export type ListedSubmission = Submission & { subteam?: string | null };
// Someone the form is for who has not submitted it.
export type Missing = Ok<'/api/onboarding/submissions'>['missing'][number];

function formPath(kind: Kind): '/api/onboarding' | '/api/onboarding/returning' {
  return kind === 'returning' ? '/api/onboarding/returning' : '/api/onboarding';
}

// exportUrl is the address of a term's CSV or headshots ZIP ('' term:
// the server's default, the hiring term).
export function exportUrl(what: 'csv' | 'zip', kind: Kind, termId: string): string {
  const q = new URLSearchParams({ kind });
  if (termId) q.set('term_id', termId);
  return `${what === 'csv' ? '/api/onboarding/export.csv' : '/api/onboarding/headshots.zip'}?${q}`;
}

// zipComplete says whether bytes end with a ZIP's end-of-central-directory
// record: the server ends an archive it could not finish without one.
export function zipComplete(bytes: Uint8Array): boolean {
  const min = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= min; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) return true;
  }
  return false;
}

export const onboarding = {
  // form is the caller's form of the term (the hiring term without one):
  // reason "formClosed" (in the server's words), kind "forbidden" (not
  // for this caller) or "notFound" (no such term).
  form: (kind: Kind, termId?: string): Promise<ExecForm> => call(client.GET(formPath(kind), { params: { query: { term_id: termId } } })),
  // save stores the submission: kind "invalid" with details by field,
  // reason "formClosed" once the window has closed.
  save: async (kind: Kind, termId: string | undefined, body: ExecFormBody): Promise<Submission> =>
    (await call(client.PUT(formPath(kind), { params: { query: { term_id: termId } }, body }))).submission,
  // uploadHeadshot sends the photo (consent given): kind "tooLarge",
  // "unsupported", "invalid" (details.consent or details.file),
  // "forbidden" (the form closed) or "aborted".
  uploadHeadshot: (kind: Kind, file: File, onProgress: (fraction: number) => void): Upload<{ key: string }> => {
    const form = new FormData();
    form.append('consent', 'true');
    form.append('file', file);
    return upload<{ key: string }>(`${formPath(kind)}/headshot`, form, onProgress);
  },
  // submissions is every submission of a term and form (a club has tens
  // of execs: the search and sort work on the whole list), the term,
  // and who the form is for that has not submitted it yet.
  submissions: async (kind: Kind, termId: string): Promise<{ term: Term; items: ListedSubmission[]; missing: Missing[] }> => {
    const items: ListedSubmission[] = [];
    for (let page = 1; ; page++) {
      const r = await call(client.GET('/api/onboarding/submissions', { params: { query: { term_id: termId || undefined, kind, page, page_size: 50 } } }));
      items.push(...(r.submissions as ListedSubmission[]));
      if (items.length >= r.total || r.submissions.length === 0) return { term: r.term, items, missing: r.missing };
    }
  },
  // download reads the CSV or the ZIP with progress: kind "forbidden" for
  // a caller who may not.
  download: (what: 'csv' | 'zip', kind: Kind, termId: string, onProgress: (received: number) => void): Promise<Downloaded> =>
    download(exportUrl(what, kind, termId), `submissions.${what}`, onProgress),
};
