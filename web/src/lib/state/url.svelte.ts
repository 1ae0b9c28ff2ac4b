// The view a page keeps in its URL, as runes: `current` is the view shown
// (read it, never assign it), `draft` is what the filter bar's fields are
// bound to until applied. Moving changes the URL (a new history entry, or
// the same one replaced) and Back and Forward move the view with it: no
// page listens for popstate itself.
//
//   const view = urlState(query);                 // query: lib/utilities/urlQuery
//   const list = resource(() => users.list(view.current));
//   view.go({ page: 2 });                         // the pager
//   view.apply({ page: 1 });                      // the filter bar's Search
import type { UrlQuery } from '../utilities/urlQuery';

export type Move = { replace?: boolean };

export class UrlState<S extends Record<string, unknown>> {
  current: S = $state() as S;
  draft: S = $state() as S;

  constructor(private readonly query: UrlQuery<S>) {
    this.current = query.parse(location.search);
    this.draft = { ...this.current };
  }

  // go shows the view with changes; the fields changed take the same
  // values in the draft (a cleared search empties its field), the others
  // keep what is typed. A view already shown changes nothing.
  go(changes: Partial<S>, how: Move = {}): void {
    this.#show({ ...this.current, ...changes }, how);
    Object.assign(this.draft, changes);
  }

  // apply shows the draft (with changes, such as page 1), as a filter
  // bar's Search does; the draft then starts again from what is shown.
  apply(changes: Partial<S> = {}, how: Move = {}): void {
    this.#show({ ...this.draft, ...changes }, how);
    this.draft = { ...this.current };
  }

  // href is the address of a view (a link that opens it).
  href(changes: Partial<S>): string {
    return location.pathname + this.query.format({ ...this.current, ...changes });
  }

  // normalize writes the current view back without a new history entry,
  // dropping what the URL held that it does not use.
  normalize(): void {
    history.replaceState(history.state, '', location.pathname + this.query.format(this.current) + location.hash);
  }

  // popped follows Back and Forward (the popstate listener is urlState's).
  popped(): void {
    this.current = this.query.parse(location.search);
    this.draft = { ...this.current };
  }

  #show(next: S, how: Move): void {
    const now = this.query.format(this.current);
    const search = this.query.format(next);
    if (search === now && search === location.search) return;
    this.current = this.query.parse(search);
    const url = location.pathname + search + location.hash;
    if (how.replace) history.replaceState(history.state, '', url);
    else history.pushState(null, '', url);
  }
}

// urlState reads the page's view from its URL and follows Back and
// Forward; call it during component initialisation. normalize: write the
// view back at once (an unknown value in a shared link is dropped);
// onpop: what else the page does after Back or Forward moved the view.
export function urlState<S extends Record<string, unknown>>(
  query: UrlQuery<S>,
  { normalize = false, onpop }: { normalize?: boolean; onpop?: () => void } = {},
): UrlState<S> {
  const s = new UrlState(query);
  if (normalize) s.normalize();
  $effect(() => {
    const listener = () => {
      s.popped();
      onpop?.();
    };
    addEventListener('popstate', listener);
    return () => removeEventListener('popstate', listener);
  });
  return s;
}
