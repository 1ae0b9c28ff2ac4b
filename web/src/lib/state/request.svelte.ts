// One request's state for a page: loading, ready with its data, or failed
// with a ServiceError, as runes. `resource(fn)` loads when the component
// starts and again whenever the state that fn reads before its first
// `await` changes (a page's URL view, an id), so a page writes
//
//   const list = resource(() => memberships.list(view.current));
//
// and reads list.loading, list.data, list.error; list.reload() asks again.
// An answer that arrives after a newer request started is dropped.
import { untrack } from 'svelte';
import { failure, type ServiceError } from '../services/errors';

export type RequestState<T> = { kind: 'loading' } | { kind: 'ready'; data: T } | { kind: 'error'; error: ServiceError };

export type Options = {
  // keep shows the last data while a newer request runs (a table that
  // stays put, marked busy, while its next page loads) instead of going
  // back to loading.
  keep?: boolean;
};

export class Resource<T> {
  state = $state<RequestState<T>>({ kind: 'loading' });
  // busy: a request is under way (the first one or a later one).
  busy = $state(false);
  // latest is the data of the last request that succeeded, kept while a
  // later one loads or after it fails (a page that keeps its figures on
  // screen and says the refresh failed beside them).
  latest = $state<T | undefined>();
  #seq = 0;

  constructor(
    private readonly fn: () => Promise<T>,
    private readonly options: Options = {},
  ) {}

  get loading(): boolean {
    return this.state.kind === 'loading';
  }
  get data(): T | undefined {
    return this.state.kind === 'ready' ? this.state.data : undefined;
  }
  get error(): ServiceError | undefined {
    return this.state.kind === 'error' ? this.state.error : undefined;
  }

  // reload asks again (a retry, or after a change the page made).
  reload = (): Promise<void> => this.settle(this.fn());

  // quietly asks again keeping what is shown, whatever the options say
  // (a refresh after a save); a failure leaves the data as it was.
  quietly = async (): Promise<void> => {
    const mine = ++this.#seq;
    try {
      const data = await this.fn();
      if (mine === this.#seq) this.#ready(data);
    } catch {
      // the page keeps what it shows
    }
  };

  // set replaces the data (the page changed it and knows the result).
  set(data: T): void {
    this.#seq++;
    this.busy = false;
    this.#ready(data);
  }

  #ready(data: T): void {
    this.state = { kind: 'ready', data };
    this.latest = data;
  }

  // settle waits for one request's answer; a newer request wins.
  async settle(p: Promise<T>): Promise<void> {
    const mine = ++this.#seq;
    this.busy = true;
    if (!this.options.keep || this.state.kind !== 'ready') this.state = { kind: 'loading' };
    try {
      const data = await p;
      if (mine === this.#seq) this.#ready(data);
    } catch (e) {
      if (mine === this.#seq) this.state = { kind: 'error', error: failure(e) };
    } finally {
      if (mine === this.#seq) this.busy = false;
    }
  }
}

// resource starts loading when the component starts (call it during
// component initialisation) and again when what fn reads synchronously
// changes.
export function resource<T>(fn: () => Promise<T>, options: Options = {}): Resource<T> {
  const r = new Resource(fn, options);
  $effect(() => {
    const p = fn();
    untrack(() => void r.settle(p));
  });
  return r;
}

// Action is a change a form asks for (a save, a delete): busy while it
// runs, a second press ignored meanwhile. run answers whether it
// succeeded; a failure goes to the form's own wording (refused).
export class Action<A extends unknown[] = []> {
  busy = $state(false);

  constructor(
    private readonly fn: (...args: A) => Promise<void>,
    private readonly refused: (e: ServiceError) => void,
  ) {}

  run = async (...args: A): Promise<boolean> => {
    if (this.busy) return false;
    this.busy = true;
    try {
      await this.fn(...args);
      return true;
    } catch (e) {
      this.refused(failure(e));
      return false;
    } finally {
      this.busy = false;
    }
  };
}

export function action<A extends unknown[] = []>(fn: (...args: A) => Promise<void>, refused: (e: ServiceError) => void): Action<A> {
  return new Action(fn, refused);
}
