// The headshot field: a chosen image is checked in the browser and shown
// at once (a blob: URL), then uploaded with progress as soon as consent is
// given (the upload requires it); a newer pick aborts the earlier upload.
import { onboarding as t } from '$lib/i18n/onboarding';
import { ApiError, upload, type Upload } from '$lib/services/api';
import { errorText } from '$lib/utilities/forms';
import { headshotPath, headshotProblem, type Kind } from './model';

type Hooks = {
  // after an upload is stored: its key and the file's name
  uploaded: (key: string, name: string) => void;
  // an upload refused because the form closed meanwhile, or the caller
  // is not let in: the server's words
  refused: (message: string) => void;
};

export class Headshot {
  // the file chosen on this page, not uploaded yet (or uploading)
  file = $state<File | null>(null);
  preview = $state<string | null>(null);
  progress = $state<number | null>(null);
  error = $state('');
  #upload: Upload<{ key: string }> | null = null;
  #done: Promise<boolean> = Promise.resolve(true);
  #pick = 0;

  constructor(
    private readonly kind: Kind,
    private readonly hooks: Hooks,
  ) {}

  get uploading(): boolean {
    return this.progress !== null;
  }

  // choose takes a picked file: checked, previewed, and uploaded when the
  // consent is given already.
  choose(file: File, consent: boolean): void {
    this.#pick++;
    this.#upload?.abort();
    this.#upload = null;
    this.progress = null;
    this.#setPreview(null);
    this.file = null;
    const problem = headshotProblem(file);
    if (problem) {
      this.error = t.headshot[problem];
      return;
    }
    this.error = '';
    this.file = file;
    this.#setPreview(URL.createObjectURL(file));
    if (consent) this.send();
  }

  // send uploads the pending file (once consent is given).
  send(): void {
    const file = this.file;
    if (!file || this.uploading) return;
    const mine = ++this.#pick;
    this.error = '';
    this.progress = 0;
    const form = new FormData();
    form.append('consent', 'true');
    form.append('file', file);
    const up = upload<{ key: string }>(headshotPath(this.kind), form, (f) => {
      if (mine === this.#pick) this.progress = f;
    });
    this.#upload = up;
    this.#done = up.promise.then(
      (r) => {
        if (mine !== this.#pick) return false;
        this.#upload = null;
        this.progress = null;
        this.file = null;
        this.hooks.uploaded(r.key, file.name);
        return true;
      },
      (e: unknown) => {
        if (mine !== this.#pick || (e instanceof ApiError && e.status === -1)) return false;
        this.#upload = null;
        this.progress = null;
        this.error = uploadProblem(e);
        if (e instanceof ApiError && e.status === 403) this.hooks.refused(e.detail ?? e.title);
        return false;
      },
    );
  }

  // settled waits for an upload under way; true when it stored the file.
  settled(): Promise<boolean> {
    return this.#done;
  }

  dispose(): void {
    this.#upload?.abort();
    this.#setPreview(null);
  }

  #setPreview(url: string | null): void {
    if (this.preview) URL.revokeObjectURL(this.preview);
    this.preview = url;
  }
}

function uploadProblem(e: unknown): string {
  if (!(e instanceof ApiError)) return t.headshot.failed;
  if (e.status === 413) return t.headshot.tooLarge;
  if (e.status === 415) return t.headshot.wrongType;
  if (e.status === 400 && e.details.consent) return t.headshot.consentNeeded;
  if (e.status === 400 && e.details.file) return t.headshot.empty;
  if (e.status === 403 || e.status === 429) return errorText(e);
  return t.headshot.failed;
}
