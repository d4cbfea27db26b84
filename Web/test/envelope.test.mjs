// Sealed files of an encrypted remote, opened and sealed by the web core with libsodium in
// WebAssembly (.build/wasm/sodium.wasm, built by `make` through scripts/web-wasm.sh): the files
// the CLI sealed open, and sealing their plain bytes again gives the same bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fromHex } from '../core/bytes.js';
import { BatchEnvelope, openBatch } from '../core/envelope.js';
import { sodiumModule } from '../core/envelope-loader.js';

const fixture = JSON.parse(readFileSync(new URL('../../Tests/Fixtures/sync-vectors/sealed.json', import.meta.url), 'utf8'));
const bytes = (file) => new Uint8Array(Buffer.from(file.sealed, 'base64'));
const envelope = async (key = fixture.key, remoteId = fixture.remoteId) => new BatchEnvelope(await sodiumModule(), remoteId, fromHex(key));

test('files sealed by the CLI open, and sealing their plain bytes again gives the same bytes', async () => {
  const sealing = await envelope();
  for (const file of fixture.files) {
    const { plain } = sealing.open(bytes(file), file.name);
    const batch = await openBatch(sealing, bytes(file), file.name);
    assert.ok(batch.changes.length > 0 || batch.kind === 'snapshot');
    assert.deepEqual(sealing.seal(plain, file.name), bytes(file), JSON.stringify(file.name));
  }
});

test('a changed byte, another name, another remote or another key fails', async () => {
  const sealing = await envelope();
  const file = fixture.files[0];
  const changed = bytes(file);
  changed[changed.indexOf(0x0a) + 30] ^= 1;
  assert.throws(() => sealing.open(changed, file.name), /authentication/);
  assert.throws(() => sealing.open(bytes(file), { device: file.name.device, seq: file.name.seq + 1 }), /another file/);
  const other = await envelope(fixture.key, '00000000-0000-4000-8000-000000000000');
  assert.throws(() => other.open(bytes(file), file.name), /authentication/);
  const wrongKey = await envelope('11'.repeat(32));
  assert.throws(() => wrongKey.open(bytes(file), file.name), /authentication/);
});

test('a plain file is refused on an encrypted remote', async () => {
  const sealing = await envelope();
  const plain = new TextEncoder().encode('{"lifelog":"batch","format":1,"device":"d","seq":1,"created":1}\n');
  assert.throws(() => sealing.open(plain, { device: 'd', seq: 1 }), /not sealed/);
});
