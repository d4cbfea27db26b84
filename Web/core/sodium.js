// libsodium's XChaCha20-Poly1305 (IETF) and keyed BLAKE2b, from the WebAssembly module that
// scripts/web-wasm.sh builds from libsodium's own source (docs/web.md, "Encryption"). No
// cryptography is written here: this only moves bytes in and out of the module's memory.

export const KEY_BYTES = 32;
export const NONCE_BYTES = 24;
export const TAG_BYTES = 16;

/** The module's functions over `bytes` of a compiled module. */
export async function loadSodium(bytes) {
  const stub = () => 52; // ENOSYS: libsodium's code here never writes files
  const { instance } = await WebAssembly.instantiate(bytes, {
    env: { sodium_misuse: () => { throw new Error('libsodium misuse'); } },
    wasi_snapshot_preview1: { fd_close: stub, fd_seek: stub, fd_write: stub },
  });
  const exports = instance.exports;

  function withBuffers(inputs, outputLength, body) {
    const pointers = inputs.map((input) => {
      const pointer = exports.lls_alloc(input.length);
      new Uint8Array(exports.memory.buffer, pointer, input.length).set(input);
      return pointer;
    });
    const out = exports.lls_alloc(outputLength);
    try {
      const status = body(out, ...pointers);
      return status === 0 ? new Uint8Array(exports.memory.buffer, out, outputLength).slice() : null;
    } finally {
      for (const pointer of [...pointers, out]) exports.lls_free(pointer);
    }
  }

  return {
    /** Ciphertext and tag of `message`. */
    seal(message, associated, nonce, key) {
      return withBuffers([message, associated, nonce, key], message.length + TAG_BYTES,
        (out, m, ad, n, k) => exports.lls_seal(out, m, message.length, ad, associated.length, n, k));
    },
    /** The plaintext of `sealed` (ciphertext and tag), or null when it fails authentication. */
    open(sealed, associated, nonce, key) {
      if (sealed.length < TAG_BYTES) return null;
      return withBuffers([sealed, associated, nonce, key], sealed.length - TAG_BYTES,
        (out, c, ad, n, k) => exports.lls_open(out, c, sealed.length, ad, associated.length, n, k));
    },
    /** BLAKE2b of `first` then `second`, keyed with `key`, `length` bytes. */
    hash(first, second, key, length) {
      return withBuffers([first, second, key], length,
        (out, a, b, k) => exports.lls_hash(out, length, a, first.length, b, second.length, k, key.length));
    },
  };
}
