// The headshot field: a chosen image is checked in the browser and shown
// at once (a blob: URL), then uploaded with progress as soon as consent is
// given (the upload requires it); a newer pick aborts the earlier upload.
import { onboarding as t } from '$lib/i18n/onboarding';
import type { Upload } from '$lib/services/types';
import { failure, isKind } from '$lib/services/errors';
import { onboarding } from '$lib/services/onboarding';
import { errorText } from '$lib/utilities/forms';
import { headshotProblem, type Kind } from './model';

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
    const up = onboarding.uploadHeadshot(this.kind, file, (f) => {
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
        if (mine !== this.#pick || isKind(e, 'aborted')) return false;
        this.#upload = null;
        this.progress = null;
        this.error = uploadProblem(e);
        const f = failure(e);
        if (f.kind === 'forbidden') this.hooks.refused(f.detail ?? f.title);
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

function uploadProblem(err: unknown): string {
  const e = failure(err);
  if (e.kind === 'tooLarge') return t.headshot.tooLarge;
  if (e.kind === 'unsupported') return t.headshot.wrongType;
  if (e.kind === 'invalid' && e.details.consent) return t.headshot.consentNeeded;
  if (e.kind === 'invalid' && e.details.file) return t.headshot.empty;
  if (e.kind === 'forbidden' || e.kind === 'rateLimited') return errorText(e);
  return t.headshot.failed;
}
