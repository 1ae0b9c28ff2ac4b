// A page's view as its URL query: what is in the query is the view
// (shareable, kept on reload, stepped through by Back and Forward), and a
// value at its default is left out of the URL. A page declares its fields
// once, in the order they appear in the URL:
//
//   const query = urlQuery({
//     q: param.text('q', { max: 100 }),
//     status: param.choice('status', statuses, ''),
//     sort: param.choice('sort', sorts, 'created_at'),
//     order: param.order('desc'),
//     page: param.page(),
//     pageSize: param.pageSize(),
//   });
//
// and gets parse(location.search), format(view) and the defaults. Anything
// unknown or out of range in a URL reads as its default. The rune that
// holds the current view and follows Back and Forward is
// lib/state/url.svelte.ts.
export type Order = 'asc' | 'desc';
export const pageSizes = [10, 25, 50] as const;

export type Param<T> = {
  // key is the name in the URL.
  readonly key: string;
  readonly def: T;
  // read turns the URL's value (null when absent) into the view's.
  read(raw: string | null): T;
  // write is the URL's value, or null to leave it out.
  write(v: T): string | null;
};

// always makes a field stay in the URL at its default too (the dashboard
// says ?interval=24 once chosen).
function withDefault<T>(p: Param<T>, always: boolean): Param<T> {
  return always ? p : { ...p, write: (v) => (same(v, p.def) ? null : p.write(v)) };
}

function same(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' ? a.trim() === b.trim() : a === b;
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function positive(raw: string | null): number | null {
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 ? n : null;
}

export const param = {
  // text is free text cut at max characters (searches, filters); trim
  // drops the spaces around it when read. The URL holds it trimmed.
  text(key: string, { max = 200, trim = false }: { max?: number; trim?: boolean } = {}): Param<string> {
    return withDefault({ key, def: '', read: (raw) => (trim ? (raw ?? '').trim() : (raw ?? '')).slice(0, max), write: (v) => v.trim() || null }, false);
  },
  // choice is one of a list of words, else def ('' for "any").
  choice<T extends string, D extends string = T>(key: string, values: readonly T[], def: D, { always = false } = {}): Param<T | D> {
    return withDefault<T | D>(
      { key, def, read: (raw) => (raw !== null && (values as readonly string[]).includes(raw) ? (raw as T) : def), write: (v) => v || null },
      always,
    );
  },
  // number is one of a list of whole numbers, else def.
  number<T extends number>(key: string, values: readonly T[], def: T, { always = false } = {}): Param<T> {
    return withDefault<T>({ key, def, read: (raw) => (values.find((v) => String(v) === raw) ?? def), write: (v) => String(v) }, always);
  },
  order(def: Order = 'asc', key = 'order'): Param<Order> {
    return param.choice<Order>(key, ['asc', 'desc'], def);
  },
  // page is a page number from 1.
  page(key = 'page'): Param<number> {
    return withDefault({ key, def: 1, read: (raw) => positive(raw) ?? 1, write: (v) => String(v) }, false);
  },
  pageSize(def: number = 25, sizes: readonly number[] = pageSizes, key = 'page_size'): Param<number> {
    return param.number(key, sizes, def);
  },
  // uuid is an id (lower case), else '' (none).
  uuid(key: string): Param<string> {
    return withDefault({ key, def: '', read: (raw) => (raw && uuidShape.test(raw) ? raw.toLowerCase() : ''), write: (v) => v || null }, false);
  },
  // flag is present (true) or absent (false): ?change=1.
  flag(key: string): Param<boolean> {
    return withDefault({ key, def: false, read: (raw) => raw !== null, write: (v) => (v ? '1' : null) }, false);
  },
};

export type Fields<S> = { readonly [K in keyof S]: Param<S[K]> };
export type View<F> = { -readonly [K in keyof F]: F[K] extends Param<infer T> ? T : never };

export type UrlQuery<S> = {
  readonly defaults: S;
  // parse reads a URL query (location.search).
  parse(search: string): S;
  // format writes a view as a URL query: "" or "?...".
  format(s: S): string;
};

export function urlQuery<F extends Fields<Record<string, unknown>>>(fields: F): UrlQuery<View<F>> {
  type S = View<F>;
  const keys = Object.keys(fields) as (keyof F & string)[];
  const defaults = Object.fromEntries(keys.map((k) => [k, fields[k]!.def])) as S;
  return {
    defaults,
    parse(search) {
      const p = new URLSearchParams(search);
      return Object.fromEntries(keys.map((k) => [k, fields[k]!.read(p.get(fields[k]!.key))])) as S;
    },
    format(s) {
      const p = new URLSearchParams();
      for (const k of keys) {
        const v = fields[k]!.write(s[k] as never);
        if (v !== null) p.set(fields[k]!.key, v);
      }
      const out = p.toString();
      return out ? `?${out}` : '';
    },
  };
}

type Sorted = { sort: string; order: Order; page?: number };

// sortBy is the view after pressing a column's header: the same column
// turns its order round; another starts in its first order (ascending
// unless first says otherwise, as for dates or counts), on page 1.
export function sortBy<S extends Sorted>(s: S, key: S['sort'], first: (key: S['sort']) => Order = () => 'asc'): S {
  const next = s.sort === key ? { ...s, order: s.order === 'asc' ? 'desc' : 'asc' } : { ...s, sort: key, order: first(key) };
  return ('page' in s ? { ...next, page: 1 } : next) as S;
}
