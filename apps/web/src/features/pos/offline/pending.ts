import { openDb, STORES } from './idb';

/**
 * How many sales, customers and caja movements this device has not sent yet (every business and
 * user): asked before signing out. Kept apart from the offline POS so the shell stays small.
 */
export async function pendingOnDevice(): Promise<number> {
  try {
    const tx = (await openDb()).transaction(STORES.cola, 'readonly');
    const r = tx.objectStore(STORES.cola).count();
    return await new Promise((resolve) => {
      tx.oncomplete = () => resolve(r.result);
      tx.onerror = () => resolve(0);
    });
  } catch {
    return 0;
  }
}

/** Logout: the catalogues kept for the POS go (the queue stays: it is sent when its user signs in again). */
export async function clearCatalogues(): Promise<void> {
  try {
    const tx = (await openDb()).transaction(STORES.catalogos, 'readwrite');
    tx.objectStore(STORES.catalogos).clear();
    await new Promise<void>((resolve) => {
      tx.oncomplete = tx.onerror = tx.onabort = () => resolve();
    });
  } catch {
    /* nothing kept */
  }
}
