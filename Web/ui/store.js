// The replica in IndexedDB: one record, the whole state (docs/web.md, "Storage").
const DB = 'lifelog';
const STORE = 'replica';

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let database = null;

async function transaction(mode, body) {
  database ??= await open();
  return new Promise((resolve, reject) => {
    const tx = database.transaction(STORE, mode);
    const request = body(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request?.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** The saved replica, or undefined before pairing. */
export function loadState() {
  return transaction('readonly', (store) => store.get('state'));
}

/** Saves the replica (durably: the transaction has committed when this resolves). */
export function saveState(state) {
  return transaction('readwrite', (store) => store.put(state, 'state'));
}

/** Forgets the replica (a revoked device). */
export function clearState() {
  return transaction('readwrite', (store) => store.delete('state'));
}
