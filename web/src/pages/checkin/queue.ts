// Check-ins tapped without a connection, kept in IndexedDB with their
// client_id until they are sent: the page lists how many wait and never
// shows a queued one as done. Replaying one is safe: the API answers a
// repeated client_id as it answered the first time.
export type Queued = { client_id: string; id: string; sig: string | null; name: string; walk_in: boolean; at: number };

const DB = 'hackdesk-checkin';
const STORE = 'queue';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'client_id' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function tx<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const t = db.transaction(STORE, mode);
      const req = fn(t.objectStore(STORE));
      t.oncomplete = () => resolve(req.result);
      t.onerror = () => reject(t.error);
    });
  } finally {
    db.close();
  }
}

export const queue = {
  add: (q: Queued) => tx('readwrite', (s) => s.put(q)),
  remove: (clientID: string) => tx('readwrite', (s) => s.delete(clientID)),
  all: async (): Promise<Queued[]> => (await tx<Queued[]>('readonly', (s) => s.getAll() as IDBRequest<Queued[]>)).sort((a, b) => a.at - b.at),
};
