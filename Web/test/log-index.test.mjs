// The page's LogIndex against full scans of the replica, after random adds, edits and deletes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lastMealBefore } from '../core/due.js';
import { LogIndex } from '../core/log-index.js';
import { activities, addEntry, editEntry, entries, newReplica } from '../core/replica.js';
import { isoTime } from '../core/time.js';

/** A small seeded generator (mulberry32), so a failure can be run again. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function usesByScan(state) {
  const uses = new Map();
  for (const entry of entries(state)) {
    const id = activities(state).find((a) => a.name === entry.activity).id;
    uses.set(id, (uses.get(id) ?? 0) + 1);
  }
  return uses;
}

test('the index answers what full scans of the replica answer, change after change', async () => {
  const seed = 20261206;
  console.log(`seed ${seed}`);
  const next = random(seed);
  const state = await newReplica({ device: '00000000-0000-4000-8000-000000000001' });
  const names = activities(state).map((a) => a.name);
  const base = Date.UTC(2026, 11, 1, 6);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const at = () => isoTime(base + Math.floor(next() * 4 * 86400) * 1000, pick([0, 60, -300]));
  const index = new LogIndex(state);
  const ids = [];
  for (let step = 0; step < 400; step += 1) {
    const roll = next();
    if (roll < 0.5 || ids.length === 0) {
      const id = addEntry(state, { activity: pick(names), at: at() }, base + step);
      ids.push(id);
      index.entryChanged(id);
    } else {
      const id = pick(ids);
      const change = roll < 0.7 ? { at: at() } : roll < 0.8 ? { activity: pick(names) }
        : { deleted: next() < 0.7 };
      editEntry(state, id, change, base + step);
      index.entryChanged(id);
    }
    if (step % 20 !== 19) continue;
    for (let day = 0; day < 5; day += 1) {
      const key = new Date(base + day * 86400000).toISOString().slice(0, 10);
      assert.deepEqual(index.entriesOn(key), entries(state, { day: key }), `step ${step}, ${key}`);
    }
    for (let hour = 0; hour < 110; hour += 7) {
      const now = base + hour * 3600000;
      assert.deepEqual(index.lastMealBefore(now)?.id ?? null, lastMealBefore(state, now)?.id ?? null, `step ${step}, hour ${hour}`);
    }
    const uses = usesByScan(state);
    for (const { id } of activities(state)) assert.equal(index.uses.get(id) ?? 0, uses.get(id) ?? 0, `step ${step}, ${id}`);
  }
  const rebuilt = new LogIndex(state);
  assert.deepEqual(rebuilt.meals, index.meals);
});
