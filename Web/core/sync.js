// One sync of a replica with `lifelog serve` (docs/sync-protocol.md §5): snapshots for a first
// join, pages of changes merged per device in seq order without gaps, then the queued changes
// pushed. The replica is changed in place; the caller saves it (after every page, `save`).
import { decodeBatch } from './codec.js';
import { openBatch } from './envelope.js';
import { mergeChange, sealPending } from './replica.js';
import { AHEAD_LIMIT, stampMilliseconds } from './stamp.js';
import { SyncFailure } from './client.js';

/** Whether any stamp of a batch is more than an hour ahead of `wall`: it is held, not merged. */
function isAhead(batch, wall) {
  return batch.changes.some((change) => change.stamps.some((stamp) => (stampMilliseconds(stamp) ?? 0) > wall + AHEAD_LIMIT));
}

/**
 * Syncs `state` through `client`. For an encrypted remote, `makeEnvelope(remoteId)` gives the
 * envelope that opens and seals its files (the page's and device.mjs's come from
 * envelope-loader.js). `now()` gives the wall clock; `save(state)` is awaited after each merged
 * page. Returns `{merged, pushed, held}`.
 */
export async function sync(state, client, { makeEnvelope = null, now = Date.now, save = async () => {} } = {}) {
  const manifest = await client.manifest();
  if (state.remoteId && manifest.remoteId !== state.remoteId) {
    throw new SyncFailure('The server holds a different remote than this device synced with; pair again');
  }
  let envelope = null;
  if (manifest.encrypted) {
    if (!state.dataKey || !makeEnvelope) {
      throw new SyncFailure('This remote is encrypted; pair again with a link that carries its key');
    }
    envelope = await makeEnvelope(manifest.remoteId);
    if (!state.keyChecked) {
      const keys = await client.keys();
      if (!keys || !envelope.checks(keys)) throw new SyncFailure("The link's key does not open this remote; pair again");
      state.keyChecked = true;
    }
  } else if (state.dataKey) {
    throw new SyncFailure('This device holds a key, but the remote is not encrypted; pair again');
  }
  state.remoteId = manifest.remoteId;
  state.encrypted = manifest.encrypted === true;
  const open = async (bytes, name) => (envelope ? openBatch(envelope, bytes, name) : decodeBatch(bytes));
  const result = { merged: 0, pushed: 0, held: [] };
  const held = new Set();
  let resumeFrom = null;

  async function mergeSnapshot() {
    for (;;) {
      const snapshot = await client.latestSnapshot(state.cursor, state.device);
      if (!snapshot) return;
      const batch = await open(snapshot.bytes, { snapshot: snapshot.name || true });
      if (isAhead(batch, now())) {
        result.held.push({ device: batch.device, seq: 0, why: 'ahead' });
        return;
      }
      for (const change of batch.changes) if (mergeChange(state, change, now())) result.merged += 1;
      for (const [device, seq] of Object.entries(batch.covers)) {
        if (device !== state.device && seq > (state.merged[device] ?? 0)) state.merged[device] = seq;
      }
      if (snapshot.cursor === state.cursor) return;
      state.cursor = snapshot.cursor;
      await save(state);
    }
  }

  if (state.cursor === '') await mergeSnapshot();
  for (;;) {
    const after = state.cursor;
    const page = await client.changes(after, state.device);
    for (const item of page.batches) {
      const { device, seq } = item;
      const last = state.merged[device] ?? 0;
      if (seq <= last || held.has(device)) continue;
      let batch = null;
      let why = '';
      if (seq !== last + 1) why = 'missing';
      else {
        try {
          batch = await open(item.bytes, { device, seq });
          if (batch.kind !== 'batch' || batch.device !== device || batch.seq !== seq) why = 'unreadable';
          else if (isAhead(batch, now())) why = 'ahead';
        } catch {
          why = 'unreadable';
        }
      }
      if (why) {
        held.add(device);
        result.held.push({ device, seq, why });
        if (resumeFrom === null) resumeFrom = after;
        continue;
      }
      for (const change of batch.changes) if (mergeChange(state, change, now())) result.merged += 1;
      state.merged[device] = seq;
    }
    state.cursor = page.cursor;
    await save(state);
    if (page.needsSnapshot) {
      const before = state.cursor;
      await mergeSnapshot();
      if (state.cursor !== before) continue;
    }
    if (!page.more) break;
  }
  // A device held back is asked for again from the page it was held in: batches merged since are
  // passed over by seq.
  if (resumeFrom !== null) state.cursor = resumeFrom;

  await sealPending(state, now());
  await save(state);
  while (state.outbox.length > 0) {
    const next = state.outbox[0];
    const bytes = new TextEncoder().encode(next.text);
    const sealed = envelope ? envelope.seal(bytes, { device: state.device, seq: next.seq }) : bytes;
    await client.push(state.device, next.seq, sealed);
    state.outbox.shift();
    result.pushed += 1;
    await save(state);
  }
  state.lastSync = now();
  state.lastError = null;
  await save(state);
  return result;
}
