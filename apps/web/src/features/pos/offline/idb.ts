/**
 * A few lines over IndexedDB (no library): the offline POS keeps its catalogue and its queue here,
 * so a reload, a closed tab or a power cut of the tablet loses nothing (decision 0014).
 */
const DB_NAME = 'mostrador-pos';
const VERSION = 1;
export const STORES = { catalogos: 'catalogos', cola: 'cola' } as const;
type Store = (typeof STORES)[keyof typeof STORES];

let opening: Promise<IDBDatabase> | null = null;

export function openDb(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const r = indexedDB.open(DB_NAME, VERSION);
    r.onupgradeneeded = () => {
      const db = r.result;
      if (!db.objectStoreNames.contains(STORES.catalogos))
        db.createObjectStore(STORES.catalogos, { keyPath: 'businessId' });
      if (!db.objectStoreNames.contains(STORES.cola)) {
        const cola = db.createObjectStore(STORES.cola, { keyPath: 'id' });
        cola.createIndex('orden', ['businessId', 'seq']);
      }
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => {
      opening = null;
      reject(r.error ?? new Error('IndexedDB no disponible'));
    };
  });
  return opening;
}

const done = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('IndexedDB: transacción abortada'));
  });

/** Writes are durable once this resolves (the transaction committed). */
export async function put<T>(store: Store, value: T): Promise<void> {
  const tx = (await openDb()).transaction(store, 'readwrite', { durability: 'strict' });
  tx.objectStore(store).put(value);
  await done(tx);
}

export async function remove(store: Store, key: IDBValidKey): Promise<void> {
  const tx = (await openDb()).transaction(store, 'readwrite', { durability: 'strict' });
  tx.objectStore(store).delete(key);
  await done(tx);
}

export async function get<T>(store: Store, key: IDBValidKey): Promise<T | undefined> {
  const tx = (await openDb()).transaction(store, 'readonly');
  const r = tx.objectStore(store).get(key);
  await done(tx);
  return r.result as T | undefined;
}

/** The queue of one business in the order its items were made. */
export async function queueOf<T>(businessId: string): Promise<T[]> {
  const tx = (await openDb()).transaction(STORES.cola, 'readonly');
  const r = tx
    .objectStore(STORES.cola)
    .index('orden')
    .getAll(IDBKeyRange.bound([businessId, -Infinity], [businessId, Infinity]));
  await done(tx);
  return r.result as T[];
}
