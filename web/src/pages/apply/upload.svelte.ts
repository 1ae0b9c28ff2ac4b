// The resume field's upload: checked in the browser, sent at once with
// progress, and replaced by a newer pick (whose start aborts the earlier
// upload). What the server holds is read back by name and links.
import { apply } from '$lib/i18n/apply';
import { applications, type Resume } from '$lib/services/applications';
import type { Upload } from '$lib/services/types';
import { failure, isKind } from '$lib/services/errors';
import { resumeProblem } from './resume';

export type { Resume };

type Hooks = {
  // makes sure the draft exists (an upload needs one)
  ready: () => Promise<void>;
  // the field's error, or null to clear it
  error: (message: string | null) => void;
  // after a new resume is stored
  uploaded: (name: string) => void;
  // the application was submitted meanwhile
  locked: () => void;
};

export class ResumeUpload {
  current = $state<Resume | null>(null);
  progress = $state<number | null>(null);
  #upload: Upload<unknown> | null = null;
  #pick = 0;

  constructor(private readonly hooks: Hooks) {}

  get uploading(): boolean {
    return this.progress !== null;
  }

  async load(): Promise<void> {
    try {
      this.current = await applications.resume();
    } catch {
      // the name stays as it was; the review step shows what is known
    }
  }

  async pick(file: File): Promise<void> {
    const mine = ++this.#pick;
    this.#upload?.abort();
    this.#upload = null;
    const problem = resumeProblem(file);
    if (problem) {
      this.progress = null;
      this.hooks.error(problem);
      return;
    }
    this.hooks.error(null);
    this.progress = 0;
    try {
      await this.hooks.ready();
      if (mine !== this.#pick) return;
      const up = applications.uploadResume(file, (f) => {
        if (mine === this.#pick) this.progress = f;
      });
      this.#upload = up;
      await up.promise;
      if (mine !== this.#pick) return;
      this.#upload = null;
      await this.load();
      this.progress = null;
      this.hooks.uploaded(this.current?.name ?? file.name);
    } catch (e) {
      if (mine !== this.#pick || isKind(e, 'aborted')) return;
      this.#upload = null;
      this.progress = null;
      const kind = failure(e).kind;
      if (kind === 'conflict') this.hooks.locked();
      this.hooks.error(kind === 'tooLarge' ? apply.resume.tooLarge : kind === 'unsupported' ? apply.resume.wrongType : apply.resume.failed);
    }
  }
}
