// The application form's state and its conversations with the server:
// loading and merging the two copies, the debounced autosave, the resume
// upload, the team, positions and questions, moving between pages and
// submitting. The components only read and bind this state.
import { apply } from '$lib/i18n/apply';
import { applications, type Application, type Question } from '$lib/services/applications';
import { failure, isKind, ServiceError } from '$lib/services/errors';
import { positions as positionService, type Position } from '$lib/services/positions';
import { Resource } from '$lib/state/request.svelte';
import { loadSession, type Profile } from '$lib/state/session.svelte';
import { checkFields, serverMessage } from './check';
import { emptyValues, fromServer, same, type TeamMember, type Values } from './model';
import { fieldId, lastPage, nextPage, pageOfField, pages, pagesLeaving, previousPage } from './pages';
import { browserStore, clearLocal, merge, readLocal, writeLocal } from './persist';
import { buildPatch, valueOf } from './sync';
import { ResumeUpload } from './upload.svelte';

export type { Position, Question };
type SaveState = 'idle' | 'saving' | 'saved' | 'local' | 'partly' | 'offline' | 'failed';
export type SummaryItem = { id: string; text: string };

const autosaveDelay = 800;

export function submittedPage(): void {
  location.replace('/apply/submitted');
}

export class ApplyForm {
  // opened is the form's loading: true once it shows, false while the
  // page leaves (to sign in, or to the submitted page).
  opened = new Resource(() => this.#open());
  values = $state<Values>(emptyValues());
  page = $state(0);
  errors = $state<Record<string, string>>({});
  summary = $state<SummaryItem[]>([]);
  save = $state<SaveState>('idle');
  resume = new ResumeUpload({
    ready: () => this.ensureDraft(),
    error: (m) => {
      if (m) this.errors.resume = m;
      else delete this.errors.resume;
    },
    uploaded: (name) => void this.#uploaded(name),
    locked: submittedPage,
  });
  positions = $state<Position[]>([]);
  questions = $state<Question[]>([]);
  questionsFailed = $state(false);
  submitting = $state(false);
  submitError = $state<unknown>(null);
  announcement = $state('');

  #profileId = '';
  #appId: string | null = null;
  #base: Values = emptyValues();
  #syncedAt = $state<string | null>(null);
  #refused: Record<string, unknown> = {};
  #serverErrors = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #saving: Promise<void> | null = null;
  #again = false;
  #creating: Promise<void> | null = null;
  #store = browserStore();

  get ready(): boolean {
    return this.opened.data === true;
  }

  async #open(): Promise<boolean> {
    const profile = await loadSession();
    if (!profile) {
      location.assign('/login?next=%2Fapply');
      return false;
    }
    this.#profileId = profile.id;
    const [app, positions] = await Promise.all([
      applications.mine(),
      positionService.list().catch(() => [] as Position[]),
    ]);
    if (app?.status === 'submitted') {
      clearLocal(this.#store, profile.id);
      submittedPage();
      return false;
    }
    const m = merge(readLocal(this.#store, profile.id), app, profile.email, marketingOf(profile));
    this.#appId = app?.id ?? null;
    this.#base = m.base;
    this.#syncedAt = m.syncedAt;
    this.values = m.values;
    this.page = m.page;
    this.positions = positions;
    // The name this device saw, until the server says which resume it holds.
    this.resume.current = app && m.resumeName ? { name: m.resumeName, url: null, preview_url: null } : null;
    // While positions this device chose have not reached the server, keep
    // every local answer: the questions that apply follow the saved ones.
    const sorted = (ids: string[]) => [...ids].sort();
    const pending = !same(sorted(m.values.position_ids), sorted(m.base.position_ids));
    await Promise.all([this.loadQuestions(!pending), app ? this.resume.load() : Promise.resolve()]);
    // What this device changed before and never sent goes now (the draft
    // exists: opening the page never creates one).
    if (app && buildPatch(this.values, this.#base, this.questions).fields.length) void this.flush();
    return true;
  }

  // persist writes the local copy; the page calls it from an effect, so
  // every change of a value, the page, the resume or the sync point saves.
  persist(): void {
    if (!this.ready || !this.#profileId) return;
    writeLocal(this.#store, {
      profileId: this.#profileId,
      values: $state.snapshot(this.values) as Values,
      page: this.page,
      resumeName: this.resume.current?.name ?? null,
      syncedAt: this.#syncedAt,
    });
  }

  // loadQuestions reads the questions that apply to the saved positions;
  // `prune` drops answers to the others (the server has dropped them too).
  async loadQuestions(prune = true): Promise<void> {
    try {
      const questions = await applications.questions();
      this.questions = questions;
      this.questionsFailed = false;
      const answers: Record<string, string> = prune ? {} : { ...this.values.answers };
      for (const q of questions) answers[q.id] = this.values.answers[q.id] ?? '';
      this.values.answers = answers;
    } catch {
      this.questionsFailed = true;
    }
  }

  // changed is every input: the autosave runs after a pause in typing.
  changed(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.flush(), autosaveDelay);
  }

  // flush saves now; callers during a save wait for a save that includes
  // their change.
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#again = true;
    if (this.#saving) return this.#saving;
    this.#saving = (async () => {
      while (this.#again) {
        this.#again = false;
        await this.#saveOnce();
      }
    })();
    try {
      await this.#saving;
    } finally {
      this.#saving = null;
    }
  }

  async #saveOnce(): Promise<void> {
    let built = buildPatch(this.values, this.#base, this.questions, this.#refused);
    if (!built.fields.length) {
      if (built.held.length) this.save = this.#heldState(built.held);
      return;
    }
    this.save = 'saving';
    try {
      await this.ensureDraft();
      built = buildPatch(this.values, this.#base, this.questions, this.#refused);
      if (!built.fields.length) {
        this.save = this.#heldState(built.held);
        return;
      }
      this.#accept(await applications.update(built.patch));
      for (const f of built.fields) {
        delete this.#refused[f];
        if (this.#serverErrors.delete(f)) delete this.errors[f];
      }
      this.save = this.#heldState(built.held);
      if (built.fields.includes('position_ids')) {
        await this.loadQuestions();
        this.#again = true; // answers to questions that apply only now
      }
    } catch (e) {
      this.#saveFailed(e, built.fields);
    }
  }

  // What the status says when some fields stay behind: kept on this device
  // (not yet valid), or refused by the server (marked beside the field).
  #heldState(held: string[]): SaveState {
    if (!held.length) return 'saved';
    return held.some((f) => this.#serverErrors.has(f)) ? 'partly' : 'local';
  }

  #saveFailed(e: unknown, sent: string[]): void {
    if (!(e instanceof ServiceError)) {
      this.save = 'failed';
      return;
    }
    if (e.kind === 'conflict' && this.#appId) {
      submittedPage(); // submitted on another device
      return;
    }
    const fields = Object.keys(e.details);
    if (e.kind === 'invalid' && fields.length) {
      // The server refused these values: say so beside them, and send the
      // rest again without them.
      for (const f of fields) {
        this.#refused[f] = valueOf(this.values, f);
        this.errors[f] = serverMessage(f, e.details[f]!, this.questions);
        this.#serverErrors.add(f);
      }
      this.save = 'partly';
      if (fields.some((f) => sent.includes(f))) this.#again = true;
      return;
    }
    this.save = e.offline ? 'offline' : 'failed';
  }

  #accept(app: Application): void {
    this.#appId = app.id;
    this.#base = fromServer(app);
    this.#syncedAt = app.updated_at;
  }

  // ensureDraft creates the server's draft on the first save.
  async ensureDraft(): Promise<void> {
    if (this.#appId) return;
    this.#creating ??= (async () => {
      try {
        this.#accept(await applications.create(this.#profileId));
      } catch (e) {
        if (!isKind(e, 'conflict')) throw e;
        // made meanwhile on another device
        const app = await applications.mine();
        if (!app) throw e;
        if (app.status === 'submitted') submittedPage();
        this.#accept(app);
      } finally {
        this.#creating = null;
      }
    })();
    return this.#creating;
  }

  // A stored resume moved the draft's updated_at: this device has seen it.
  async #uploaded(name: string): Promise<void> {
    this.announcement = apply.resume.uploaded(name);
    const app = await applications.mine().catch(() => null);
    if (app) this.#syncedAt = app.updated_at;
  }

  addMember(u: { email: string; display_name: string | null }, max: number): boolean {
    const who = u.display_name || u.email;
    if (this.values.team.some((m) => m.email.toLowerCase() === u.email.toLowerCase())) {
      this.errors.team_members = apply.team.already(who);
      return false;
    }
    if (this.values.team.length >= max) {
      this.errors.team_members = apply.team.full;
      return false;
    }
    delete this.errors.team_members;
    this.values.team.push({ email: u.email, name: u.display_name || null });
    this.announcement = apply.team.added(who);
    void this.flush();
    return true;
  }

  removeMember(m: TeamMember): void {
    this.values.team = this.values.team.filter((x) => x.email !== m.email);
    delete this.errors.team_members;
    this.announcement = apply.team.removed(m.name || m.email);
    void this.flush();
  }

  // togglePosition changes the chosen positions; the questions that apply
  // follow from the saved choice.
  togglePosition(id: string, max: number): void {
    const ids = this.values.position_ids;
    this.values.position_ids = ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
    if (this.values.position_ids.length <= max) delete this.errors.position_ids;
    else this.errors.position_ids = apply.positions.tooMany;
    void this.flush();
  }

  #context() {
    return { questions: this.questions, resumeName: this.resume.current?.name ?? null, uploading: this.resume.uploading };
  }

  // The fields of some pages, with question answers spelled out, in order.
  #fieldsOf(pageIndexes: number[]): string[] {
    return pageIndexes.flatMap((i) => pages[i]!.fields.flatMap((f) => (f === 'answers' ? ['answers', ...this.questions.map((q) => `answers.${q.id}`)] : [f])));
  }

  // check validates some pages: errors beside their fields (replacing
  // those of the same fields) and the summary; true when all pass.
  check(pageIndexes: number[]): boolean {
    const fields = this.#fieldsOf(pageIndexes);
    const found = checkFields(fields, this.values, this.#context());
    for (const f of fields) {
      // A refusal by the server stands while the value is the one refused.
      const refused = this.#serverErrors.has(f) && f in this.#refused && same(this.#refused[f], valueOf(this.values, f));
      if (!refused) {
        delete this.errors[f];
        this.#serverErrors.delete(f);
      }
    }
    Object.assign(this.errors, found);
    const shown = fields.filter((f) => this.errors[f]);
    this.summary = shown.map((f) => ({ id: fieldId(f), text: this.errors[f]! }));
    return shown.length === 0;
  }

  stepDone(step: number): boolean {
    const idx = pages.flatMap((p, i) => (p.step === step ? [i] : []));
    if (step === pages[lastPage]!.step) return false;
    return Object.keys(checkFields(this.#fieldsOf(idx), this.values, this.#context())).length === 0;
  }

  // next checks what is being left and moves on; false when it stays.
  next(wide: boolean): boolean {
    if (!this.check(pagesLeaving(this.page, wide))) return false;
    this.page = nextPage(this.page, wide);
    void this.flush();
    return true;
  }

  back(wide: boolean): void {
    this.summary = [];
    this.page = previousPage(this.page, wide);
  }

  goTo(page: number, keepSummary = false): void {
    if (!keepSummary) this.summary = [];
    this.page = page;
  }

  // showErrors puts errors beside their fields, lists them all in the
  // summary and goes to the first page that holds one.
  showErrors(found: Record<string, string>): void {
    Object.assign(this.errors, found);
    const order = (f: string) => pageOfField(f) ?? this.page;
    const fields = Object.keys(found).sort((a, b) => order(a) - order(b));
    this.summary = fields.map((f) => ({ id: fieldId(f), text: found[f]! }));
    if (fields.length) this.page = order(fields[0]!);
  }

  async submit(): Promise<void> {
    if (this.submitting) return;
    this.submitError = null;
    const all = pages.slice(0, lastPage).map((_, i) => i);
    const found = checkFields(this.#fieldsOf(all), this.values, this.#context());
    if (Object.keys(found).length) {
      this.showErrors(found);
      return;
    }
    this.submitting = true;
    try {
      await this.flush();
      await this.ensureDraft();
      await applications.submit();
      clearLocal(this.#store, this.#profileId);
      this.#profileId = ''; // nothing more is written locally
      location.assign('/apply/submitted');
    } catch (e) {
      const f = failure(e);
      if (f.kind === 'conflict') {
        clearLocal(this.#store, this.#profileId);
        submittedPage();
      } else if (f.kind === 'invalid' && Object.keys(f.details).length) {
        const mapped: Record<string, string> = {};
        for (const [field, reason] of Object.entries(f.details)) mapped[field] = serverMessage(field, reason, this.questions);
        this.showErrors(mapped);
      } else {
        this.submitError = e;
      }
    } finally {
      this.submitting = false;
    }
  }
}

function marketingOf(p: Profile): boolean {
  return (p as Profile & { marketing_opt_in?: boolean }).marketing_opt_in === true;
}
