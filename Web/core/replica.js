// The local replica of a log: rows with their stamps, the clock, queued changes, the outbox and
// the pull cursor, as one plain object that a storage keeps (IndexedDB in the page, a JSON file
// for Web/tools/device.mjs). The page and the tool change it only through these functions.
import { DEFAULT_ACTIVITIES, activityKey, derivedActivityID } from './activity.js';
import { randomUUID } from './bytes.js';
import { FIELDS, encodeBatch } from './codec.js';
import { mergeRow } from './merge.js';
import { HybridClock, makeStamp } from './stamp.js';

/**
 * The rows each replica changed since its storage last saved them (`entity/id` keys), so a page
 * saves one row for a tap, not the whole log. Not part of the state: a new replica, or one loaded
 * without it, counts every row as changed.
 */
const changedRows = new WeakMap();

function markChanged(state, entity, id) {
  if (!changedRows.has(state)) return; // everything is saved anyway
  changedRows.get(state).add(`${entity}/${id}`);
}

/** The rows changed since `takeChangedRows` was last called, or null for "all of them". */
export function takeChangedRows(state) {
  const changed = changedRows.get(state) ?? null;
  changedRows.set(state, new Set());
  return changed;
}

/** A new, empty replica for a new device of an account. */
export async function newReplica({ server = '', token = '', device = randomUUID(), name = '' } = {}) {
  const state = {
    version: 1, device, name, server, token, remoteId: '', encrypted: false,
    clock: { ms: 0, counter: 0 }, seq: 0,
    rows: { activity: {}, entry: {}, setting: {} },
    pending: [], outbox: [], merged: {}, cursor: '', lastSync: null, lastError: null,
  };
  for (const [activityName, kind] of DEFAULT_ACTIVITIES) {
    const id = await derivedActivityID(activityName);
    state.rows.activity[id] = { values: [activityName, kind, null, null, false, false], stamps: Array(6).fill('') };
  }
  return state;
}

function fieldIndex(entity, field) {
  const index = FIELDS[entity].findIndex(([name]) => name === field);
  if (index < 0) throw new Error(`no field ${entity}.${field}`);
  return index;
}

/** The next stamp of this device's clock at wall time `wall`. */
export function nextStamp(state, wall) {
  const clock = new HybridClock(state.clock.ms, state.clock.counter).tick(wall);
  state.clock = { ms: clock.ms, counter: clock.counter };
  return makeStamp(clock.ms, clock.counter, state.device);
}

function queue(state, entity, id) {
  markChanged(state, entity, id);
  const key = `${entity}/${id}`;
  if (!state.pending.includes(key)) state.pending.push(key);
}

/** The activity of that name (not deleted), as `{id, name, kind, archived}`, or null. */
export function findActivity(state, name) {
  const key = activityKey(name);
  for (const [id, row] of Object.entries(state.rows.activity)) {
    if (!row.values[5] && activityKey(row.values[0]) === key) {
      return { id, name: row.values[0], kind: row.values[1], archived: row.values[4] };
    }
  }
  return null;
}

/** Every activity not deleted. */
export function activities(state) {
  return Object.entries(state.rows.activity)
    .filter(([, row]) => !row.values[5])
    .map(([id, row]) => ({ id, name: row.values[0], kind: row.values[1], unit: row.values[2], archived: row.values[4] }));
}

/**
 * Logs an entry: `{activity (a name), at (ISO with offset), note, duration, quantity}`, stamped at
 * wall time `wall`. Returns its id.
 */
export function addEntry(state, { activity, at, note = null, duration = null, quantity = null }, wall) {
  const found = findActivity(state, activity);
  if (!found) throw new Error(`Unknown activity '${activity}'`);
  const id = randomUUID();
  const stamp = nextStamp(state, wall);
  state.rows.entry[id] = {
    values: [found.id, at, duration, note === '' ? null : note, quantity, [], null, false],
    stamps: Array(FIELDS.entry.length).fill(stamp),
  };
  queue(state, 'entry', id);
  return id;
}

/** Sets fields of an entry (`{activity: name, at, note, duration, quantity, deleted}`). */
export function editEntry(state, id, changes, wall) {
  const row = state.rows.entry[id];
  if (!row) throw new Error(`No entry '${id}'`);
  const stamp = nextStamp(state, wall);
  for (const [field, raw] of Object.entries(changes)) {
    let value = raw;
    if (field === 'activity') {
      const found = findActivity(state, raw);
      if (!found) throw new Error(`Unknown activity '${raw}'`);
      value = found.id;
    }
    if (field === 'note' && value === '') value = null;
    const index = fieldIndex('entry', field);
    row.values[index] = value;
    row.stamps[index] = stamp;
  }
  queue(state, 'entry', id);
}

/** Marks an entry deleted (or, with `deleted` false, restores it). */
export function deleteEntry(state, id, wall, deleted = true) {
  editEntry(state, id, { deleted }, wall);
}

/**
 * The entries as `lifelog list --format json` prints them, by time (deleted ones only with
 * `includeDeleted`); with `day` (`YYYY-MM-DD`), only those logged on that day.
 */
export function entries(state, { includeDeleted = false, day = null } = {}) {
  const out = [];
  for (const [id, row] of Object.entries(state.rows.entry)) {
    const [, at, , , , , , deleted] = row.values;
    if (deleted && !includeDeleted) continue;
    if (day !== null && !at.startsWith(day)) continue;
    out.push(entryOf(state, id));
  }
  return sortEntries(out);
}

/** One entry as `lifelog list --format json` prints it. */
export function entryOf(state, id) {
  const [activityID, at, duration, note, quantity, tags, source, deleted] = state.rows.entry[id].values;
  const activity = state.rows.activity[activityID];
  return {
    id, activity: activity ? activity.values[0] : activityID, kind: activity ? activity.values[1] : 'other',
    at, duration, note, quantity, unit: activity ? activity.values[2] : null, tags, source, deleted,
  };
}

/** Entries by time, then id (the order `entries` gives). */
export function sortEntries(list) {
  return list.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : 1));
}

/** Merges one received row; returns whether anything changed. No echo: it is not queued. */
export function mergeChange(state, change, wall) {
  const table = state.rows[change.entity];
  const merged = mergeRow(table[change.id], change);
  const clock = new HybridClock(state.clock.ms, state.clock.counter);
  for (const stamp of change.stamps) clock.observe(stamp, wall);
  state.clock = { ms: clock.ms, counter: clock.counter };
  if (!merged) return false;
  table[change.id] = merged;
  markChanged(state, change.entity, change.id);
  return true;
}

/** Turns the queued changes into the next outbox batch (its bytes kept, so a re-push is identical). */
export async function sealPending(state, wall) {
  if (state.pending.length === 0) return;
  const changes = state.pending.map((key) => {
    const slash = key.indexOf('/');
    const entity = key.slice(0, slash);
    const id = key.slice(slash + 1);
    const row = state.rows[entity][id];
    return { entity, id, values: row.values, stamps: row.stamps };
  });
  const seq = state.seq + 1;
  const bytes = await encodeBatch({ kind: 'batch', device: state.device, seq, created: wall, changes });
  state.outbox.push({ seq, text: new TextDecoder().decode(bytes) });
  state.seq = seq;
  state.pending = [];
}

/** The whole log as a snapshot's rows (every row with a written stamp). */
export function snapshotChanges(state) {
  const changes = [];
  for (const entity of Object.keys(FIELDS)) {
    for (const [id, row] of Object.entries(state.rows[entity])) {
      if (row.stamps.some((stamp) => stamp !== '')) changes.push({ entity, id, values: row.values, stamps: row.stamps });
    }
  }
  return changes;
}
