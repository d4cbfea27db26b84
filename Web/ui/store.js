// The replica in IndexedDB (docs/web.md, "Storage"): a record of everything but the rows (clock,
// queue, outbox, cursor, token), and the rows in 64 buckets by a hash of their key, so a change
// writes the few buckets it touched and an open reads 65 records, not one per row.
import { takeChangedRows } from '../core/replica.js';

const DB = 'lifelog';
const META = 'replica';
const ROWS = 'rows';
const BUCKETS = 64;

/** The bucket of a row's `entity/id` key (FNV-1a). */
function bucket(key) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % BUCKETS;
}

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(META);
      request.result.createObjectStore(ROWS);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let database = null;

async function transaction(mode, body) {
  database ??= await open();
  return new Promise((resolve, reject) => {
    const tx = database.transaction([META, ROWS], mode);
    let result;
    Promise.resolve(body(tx.objectStore(META), tx.objectStore(ROWS))).then((value) => { result = value; });
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/**
 * The keys of each bucket's rows, per replica: rows are never removed from a replica (a deleted
 * entry is a tombstone), so a save adds the keys it was told changed and builds only those buckets.
 */
const bucketKeys = new WeakMap();

function keysOf(state) {
  let keys = bucketKeys.get(state);
  if (!keys) {
    keys = Array.from({ length: BUCKETS }, () => new Set());
    for (const [entity, table] of Object.entries(state.rows)) {
      for (const id of Object.keys(table)) {
        const key = `${entity}/${id}`;
        keys[bucket(key)].add(key);
      }
    }
    bucketKeys.set(state, keys);
  }
  return keys;
}

/** The saved replica, or undefined before pairing. */
export async function loadState() {
  const state = await transaction('readonly', async (meta, rows) => {
    const saved = await request(meta.get('state'));
    if (!saved) return undefined;
    saved.rows = { activity: {}, entry: {}, setting: {} };
    const keys = Array.from({ length: BUCKETS }, () => new Set());
    const buckets = await request(rows.getAll());
    const indexes = await request(rows.getAllKeys());
    buckets.forEach((stored, at) => {
      for (const [key, row] of Object.entries(stored)) {
        const slash = key.indexOf('/');
        saved.rows[key.slice(0, slash)][key.slice(slash + 1)] = row;
        keys[indexes[at]]?.add(key);
      }
    });
    bucketKeys.set(saved, keys);
    return saved;
  });
  if (state) takeChangedRows(state); // what was loaded is saved
  return state;
}

/**
 * Saves the replica: the buckets of the rows changed since the last save (all of them the first
 * time) and the rest, in one transaction (durable when this resolves).
 */
export function saveState(state) {
  const changed = takeChangedRows(state);
  const keys = keysOf(state);
  let touched;
  if (changed === null) {
    touched = keys.map((_, index) => index);
  } else {
    touched = new Set();
    for (const key of changed) {
      const index = bucket(key);
      keys[index].add(key);
      touched.add(index);
    }
  }
  const buckets = new Map();
  for (const index of touched) {
    const contents = {};
    for (const key of keys[index]) {
      const slash = key.indexOf('/');
      contents[key] = state.rows[key.slice(0, slash)][key.slice(slash + 1)];
    }
    buckets.set(index, contents);
  }
  return transaction('readwrite', (meta, rows) => {
    const { rows: all, ...rest } = state;
    meta.put(rest, 'state');
    for (const [index, contents] of buckets) rows.put(contents, index);
  });
}

/** Forgets the replica (a revoked device). */
export function clearState() {
  return transaction('readwrite', (meta, rows) => {
    meta.clear();
    rows.clear();
  });
}
