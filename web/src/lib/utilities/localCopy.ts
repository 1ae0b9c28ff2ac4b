// A form's copy in the browser (localStorage), kept under a key per
// profile while it is filled in: the application form and the exec forms
// both keep one. Reading never fails (a missing, unreadable or other
// profile's copy is none), writing never throws (full or unavailable
// storage leaves the form working, unsaved on this device).
export type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

// browserStore is localStorage, or null where it is unavailable (private
// modes, storage turned off).
export function browserStore(): Store | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

// readCopy is the object stored under key when it is profileId's, or null.
export function readCopy(store: Store | null, key: string, profileId: string): Record<string, unknown> | null {
  let raw: unknown;
  try {
    const text = store?.getItem(key);
    if (!text) return null;
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  return isObject(raw) && raw.profileId === profileId ? raw : null;
}

export function writeCopy(store: Store | null, key: string, copy: { profileId: string }): void {
  try {
    store?.setItem(key, JSON.stringify(copy));
  } catch {
    // full or unavailable: nothing kept on this device
  }
}

export function removeCopy(store: Store | null, key: string): void {
  try {
    store?.removeItem(key);
  } catch {
    // unavailable: nothing stored
  }
}

// memoryStore is a Store held in memory, for tests.
export function memoryStore(): Store & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}
