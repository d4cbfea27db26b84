// Web/tools/device.mjs keeps the device token in its state folder: a link or file planted there
// must never make it write the token elsewhere or leave it readable by others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tool = new URL('../tools/device.mjs', import.meta.url).pathname;

test('saving the state never follows a link planted at its temporary name nor reuses a planted file', () => {
  const folder = mkdtempSync(join(tmpdir(), 'lifelog-device-'));
  const state = join(folder, 'state');
  const victim = join(folder, 'victim.txt');
  writeFileSync(victim, 'precious\n');
  chmodSync(victim, 0o644);
  const tokenFile = join(folder, 'token');
  writeFileSync(tokenFile, 'lld_secret-device-token\n');
  execFileSync('mkdir', ['-m', '0755', state]);
  symlinkSync(victim, join(state, 'state.json.tmp'));

  execFileSync(process.execPath, [tool, '--state', state, 'init', '--server', 'http://127.0.0.1:9', '--token-file', tokenFile]);

  assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
  const saved = lstatSync(join(state, 'state.json'));
  assert.ok(saved.isFile(), 'state.json is a file of its own, not the planted link');
  assert.equal(saved.mode & 0o777, 0o600);
  assert.match(readFileSync(join(state, 'state.json'), 'utf8'), /lld_secret-device-token/);
  assert.deepEqual(readdirSync(state).filter((name) => name.includes('.tmp-')), [], 'no temporary left');
});
