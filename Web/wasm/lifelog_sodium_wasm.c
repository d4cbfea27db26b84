/* The libsodium functions the web app needs, exported from a WebAssembly module built by
 * scripts/web-wasm.sh from libsodium's own source (docs/web.md, "Encryption"): the same
 * XChaCha20-Poly1305 (IETF) and keyed BLAKE2b the command line uses
 * (Sources/LifelogSync/Encryption), nothing written here but the exports. Buffers live in the
 * module's memory, taken with lls_alloc and given back with lls_free. */
#include <stdlib.h>

#include "sodium/crypto_aead_xchacha20poly1305.h"
#include "sodium/crypto_generichash_blake2b.h"

#define EXPORT(name) __attribute__((export_name(#name)))

EXPORT(lls_alloc) void *lls_alloc(size_t size) { return malloc(size ? size : 1); }

EXPORT(lls_free) void lls_free(void *pointer) { free(pointer); }

/* `out` gets the ciphertext and the 16-byte tag (mlen + 16 bytes). */
EXPORT(lls_seal)
int lls_seal(unsigned char *out, const unsigned char *message, size_t mlen, const unsigned char *ad, size_t adlen,
             const unsigned char *nonce, const unsigned char *key) {
  unsigned long long written = 0;
  return crypto_aead_xchacha20poly1305_ietf_encrypt(out, &written, message, mlen, ad, adlen, NULL, nonce, key);
}

/* 0 with the plaintext (clen - 16 bytes) in `out`, -1 when authentication fails. */
EXPORT(lls_open)
int lls_open(unsigned char *out, const unsigned char *sealed, size_t clen, const unsigned char *ad, size_t adlen,
             const unsigned char *nonce, const unsigned char *key) {
  unsigned long long written = 0;
  return crypto_aead_xchacha20poly1305_ietf_decrypt(out, &written, NULL, sealed, clen, ad, adlen, nonce, key);
}

/* BLAKE2b of `first` then `second`, keyed with `key`, `outlen` bytes long. */
EXPORT(lls_hash)
int lls_hash(unsigned char *out, size_t outlen, const unsigned char *first, size_t firstlen,
             const unsigned char *second, size_t secondlen, const unsigned char *key, size_t keylen) {
  crypto_generichash_blake2b_state state;
  if (crypto_generichash_blake2b_init(&state, key, keylen, outlen) != 0) return -1;
  crypto_generichash_blake2b_update(&state, first, firstlen);
  crypto_generichash_blake2b_update(&state, second, secondlen);
  return crypto_generichash_blake2b_final(&state, out, outlen);
}
