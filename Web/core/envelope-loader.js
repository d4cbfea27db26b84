// The envelope of an encrypted remote: libsodium's WebAssembly module, loaded once, from the
// server in a browser (`/sodium.wasm`) or from `.build/wasm` under Node (LIFELOG_SODIUM_WASM).
import { fromHex } from './bytes.js';
import { BatchEnvelope } from './envelope.js';
import { loadSodium } from './sodium.js';

let sodium = null;

async function moduleBytes() {
  if (typeof process !== 'undefined' && process.versions?.node) {
    const { readFile } = await import('node:fs/promises');
    const path = process.env.LIFELOG_SODIUM_WASM ?? new URL('../../.build/wasm/sodium.wasm', import.meta.url);
    return readFile(path);
  }
  const response = await fetch('/sodium.wasm');
  if (!response.ok) throw new Error('this server has no encryption module (lifelog was built without it)');
  return response.arrayBuffer();
}

/** libsodium, loaded on first use. */
export async function sodiumModule() {
  sodium ??= await loadSodium(await moduleBytes());
  return sodium;
}

/** The envelope for `state`'s data key on the remote `remoteId`. */
export async function openEnvelope(state, remoteId) {
  return new BatchEnvelope(await sodiumModule(), remoteId, fromHex(state.dataKey));
}
