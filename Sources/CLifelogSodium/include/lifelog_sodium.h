#ifndef LIFELOG_SODIUM_H
#define LIFELOG_SODIUM_H

#include <stddef.h>

/// The few libsodium functions end-to-end encryption needs (docs/security.md). libsodium is loaded
/// with dlopen the first time, so the lifelog binary does not link it: only adding or syncing an
/// encrypted remote pays for loading it.

/// Sizes of XChaCha20-Poly1305 (IETF) and Argon2id, checked against <sodium.h> when this is built.
enum {
  LIFELOG_SODIUM_KEY_BYTES = 32,
  LIFELOG_SODIUM_NONCE_BYTES = 24,
  LIFELOG_SODIUM_TAG_BYTES = 16,
  LIFELOG_SODIUM_SALT_BYTES = 16,
};

/// libsodium's "interactive" and "moderate" Argon2id limits.
unsigned long long lifelog_sodium_opslimit_interactive(void);
size_t lifelog_sodium_memlimit_interactive(void);
unsigned long long lifelog_sodium_opslimit_moderate(void);
size_t lifelog_sodium_memlimit_moderate(void);

/// Loads libsodium and runs sodium_init; returns 0, or -1 with a message in `error`.
int lifelog_sodium_load(char *error, size_t error_length);

/// Fills `buffer` with random bytes. Call only after a successful load.
void lifelog_sodium_random(unsigned char *buffer, size_t length);

/// Derives a key of `key_length` bytes from a passphrase with Argon2id (v1.3); 0, or -1 when out of memory.
int lifelog_sodium_argon2id(unsigned char *key, size_t key_length, const char *passphrase, size_t passphrase_length,
                            const unsigned char *salt, unsigned long long opslimit, size_t memlimit);

/// XChaCha20-Poly1305 (IETF): `sealed` receives `length + LIFELOG_SODIUM_TAG_BYTES` bytes.
void lifelog_sodium_seal(unsigned char *sealed, const unsigned char *message, size_t length,
                         const unsigned char *associated, size_t associated_length, const unsigned char *nonce,
                         const unsigned char *key);

/// Opens what lifelog_sodium_seal made; 0, or -1 when it fails authentication (nothing is then
/// to be used from `message`). `message` receives `sealed_length - LIFELOG_SODIUM_TAG_BYTES` bytes.
int lifelog_sodium_open(unsigned char *message, const unsigned char *sealed, size_t sealed_length,
                        const unsigned char *associated, size_t associated_length, const unsigned char *nonce,
                        const unsigned char *key);

/// BLAKE2b of `first` then `second`, keyed with `key` (32 bytes), `output_length` (16 to 64) bytes long:
/// the nonce of a sealed batch, so sealing the same batch twice gives the same bytes.
void lifelog_sodium_keyed_hash(unsigned char *output, size_t output_length, const unsigned char *first,
                               size_t first_length, const unsigned char *second, size_t second_length,
                               const unsigned char *key);

/// Overwrites `length` bytes with zeros in a way the compiler keeps.
void lifelog_sodium_memzero(void *buffer, size_t length);

#endif
