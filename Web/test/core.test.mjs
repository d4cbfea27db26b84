// The sync core against the vectors the Swift tests read too (Tests/Fixtures/sync-vectors/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { derivedActivityID } from '../core/activity.js';
import { utf8 } from '../core/bytes.js';
import { decodeBatch, encodeBatch } from '../core/codec.js';
import { mergeRow } from '../core/merge.js';
import { HybridClock, makeStamp } from '../core/stamp.js';
import { parseChanges } from '../core/client.js';

const fixtures = new URL('../../Tests/Fixtures/sync-vectors/', import.meta.url);
const vectors = (name) => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'));

test('batches and snapshots decode as the vectors say, and damaged ones are refused', async () => {
  for (const vector of vectors('codec.json').vectors) {
    const bytes = utf8(vector.text);
    if (vector.valid) {
      assert.deepEqual(await decodeBatch(bytes), vector.expected, vector.name);
    } else {
      await assert.rejects(decodeBatch(bytes), vector.name);
    }
  }
});

test('what the core encodes decodes to the same batch', async () => {
  for (const vector of vectors('codec.json').vectors.filter((v) => v.valid)) {
    const again = await decodeBatch(await encodeBatch(vector.expected));
    assert.deepEqual(again, vector.expected, vector.name);
  }
});

test('rows merge per field by the larger stamp', () => {
  for (const vector of vectors('merge.json').vectors) {
    assert.deepEqual(mergeRow(vector.existing, vector.incoming), vector.expected, vector.name);
  }
});

test('the hybrid clock ticks and observes under the clock rule', () => {
  const file = vectors('clock.json');
  for (const vector of file.vectors) {
    const clock = new HybridClock(vector.clock.ms, vector.clock.counter);
    if (vector.op === 'tick') clock.tick(vector.wall);
    else clock.observe(vector.stamp, vector.wall);
    assert.deepEqual({ ms: clock.ms, counter: clock.counter }, vector.expected, vector.name);
  }
  for (const vector of file.stamps) {
    assert.equal(makeStamp(vector.ms, vector.counter, vector.device), vector.stamp);
  }
});

test('activity ids are derived from names', async () => {
  for (const vector of vectors('activity.json').vectors) {
    assert.equal(await derivedActivityID(vector.name, vector.attempt), vector.id, vector.name);
  }
});

test('a page of changes is cut by its index, and one listing bytes it lacks is refused', () => {
  const body = utf8('{"cursor":"7","more":false,"needsSnapshot":false,"batches":[{"device":"d-1","seq":1,"cursor":7,"rows":1,"size":3}]}\nabc');
  const page = parseChanges(body);
  assert.equal(page.cursor, '7');
  assert.deepEqual([...page.batches[0].bytes], [...utf8('abc')]);
  assert.throws(() => parseChanges(utf8('{"cursor":"7","batches":[{"device":"d-1","seq":1,"size":9}]}\nabc')));
  assert.throws(() => parseChanges(utf8('{"cursor":"7","batches":[{"device":"a_b","seq":1,"size":0}]}\n')));
});
