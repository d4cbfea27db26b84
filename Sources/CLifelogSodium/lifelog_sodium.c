#include "lifelog_sodium.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

_Static_assert(LIFELOG_SODIUM_KEY_BYTES == crypto_aead_xchacha20poly1305_ietf_KEYBYTES, "key size");
_Static_assert(LIFELOG_SODIUM_NONCE_BYTES == crypto_aead_xchacha20poly1305_ietf_NPUBBYTES, "nonce size");
_Static_assert(LIFELOG_SODIUM_TAG_BYTES == crypto_aead_xchacha20poly1305_ietf_ABYTES, "tag size");
_Static_assert(LIFELOG_SODIUM_SALT_BYTES == crypto_pwhash_SALTBYTES, "salt size");

/* The libsodium functions used, resolved once with dlsym. */
static struct {
  int loaded;
  int (*init)(void);
  void (*randombytes_buf)(void *, size_t);
  int (*pwhash)(unsigned char *, unsigned long long, const char *, unsigned long long, const unsigned char *,
                unsigned long long, size_t, int);
  int (*encrypt)(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
                 const unsigned char *, unsigned long long, const unsigned char *, const unsigned char *,
                 const unsigned char *);
  int (*decrypt)(unsigned char *, unsigned long long *, unsigned char *, const unsigned char *, unsigned long long,
                 const unsigned char *, unsigned long long, const unsigned char *, const unsigned char *);
  void (*memzero)(void *, size_t);
  int (*hash_init)(crypto_generichash_state *, const unsigned char *, size_t, size_t);
  int (*hash_update)(crypto_generichash_state *, const unsigned char *, unsigned long long);
  int (*hash_final)(crypto_generichash_state *, unsigned char *, size_t);
} sodium;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

unsigned long long lifelog_sodium_opslimit_interactive(void) { return crypto_pwhash_OPSLIMIT_INTERACTIVE; }
size_t lifelog_sodium_memlimit_interactive(void) { return crypto_pwhash_MEMLIMIT_INTERACTIVE; }
unsigned long long lifelog_sodium_opslimit_moderate(void) { return crypto_pwhash_OPSLIMIT_MODERATE; }
size_t lifelog_sodium_memlimit_moderate(void) { return crypto_pwhash_MEMLIMIT_MODERATE; }

int lifelog_sodium_load(char *error, size_t error_length) {
  pthread_mutex_lock(&load_lock);
  if (sodium.loaded) {
    pthread_mutex_unlock(&load_lock);
    return 0;
  }
  void *library = dlopen("libsodium.so.23", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(error, error_length,
             "cannot load libsodium, which encrypted remotes need (install Debian's libsodium23 package): %s",
             dlerror());
    pthread_mutex_unlock(&load_lock);
    return -1;
  }
#define RESOLVE(field, name)                                                        \
  *(void **)(&sodium.field) = dlsym(library, name);                                 \
  if (!sodium.field) {                                                              \
    snprintf(error, error_length, "libsodium lacks %s (install libsodium23 1.0.18 or newer)", name); \
    pthread_mutex_unlock(&load_lock);                                               \
    return -1;                                                                      \
  }
  RESOLVE(init, "sodium_init")
  RESOLVE(randombytes_buf, "randombytes_buf")
  RESOLVE(pwhash, "crypto_pwhash")
  RESOLVE(encrypt, "crypto_aead_xchacha20poly1305_ietf_encrypt")
  RESOLVE(decrypt, "crypto_aead_xchacha20poly1305_ietf_decrypt")
  RESOLVE(memzero, "sodium_memzero")
  RESOLVE(hash_init, "crypto_generichash_init")
  RESOLVE(hash_update, "crypto_generichash_update")
  RESOLVE(hash_final, "crypto_generichash_final")
#undef RESOLVE
  if (sodium.init() < 0) {
    snprintf(error, error_length, "libsodium could not start (sodium_init failed)");
    pthread_mutex_unlock(&load_lock);
    return -1;
  }
  sodium.loaded = 1;
  pthread_mutex_unlock(&load_lock);
  return 0;
}

void lifelog_sodium_random(unsigned char *buffer, size_t length) { sodium.randombytes_buf(buffer, length); }

int lifelog_sodium_argon2id(unsigned char *key, size_t key_length, const char *passphrase, size_t passphrase_length,
                            const unsigned char *salt, unsigned long long opslimit, size_t memlimit) {
  return sodium.pwhash(key, key_length, passphrase, passphrase_length, salt, opslimit, memlimit,
                       crypto_pwhash_ALG_ARGON2ID13) == 0 ? 0 : -1;
}

void lifelog_sodium_seal(unsigned char *sealed, const unsigned char *message, size_t length,
                         const unsigned char *associated, size_t associated_length, const unsigned char *nonce,
                         const unsigned char *key) {
  unsigned long long sealed_length = 0;
  sodium.encrypt(sealed, &sealed_length, message, length, associated, associated_length, NULL, nonce, key);
}

int lifelog_sodium_open(unsigned char *message, const unsigned char *sealed, size_t sealed_length,
                        const unsigned char *associated, size_t associated_length, const unsigned char *nonce,
                        const unsigned char *key) {
  if (sealed_length < LIFELOG_SODIUM_TAG_BYTES) return -1;
  unsigned long long length = 0;
  return sodium.decrypt(message, &length, NULL, sealed, sealed_length, associated, associated_length, nonce, key) == 0
             ? 0
             : -1;
}

void lifelog_sodium_memzero(void *buffer, size_t length) { sodium.memzero(buffer, length); }

void lifelog_sodium_keyed_hash(unsigned char *output, size_t output_length, const unsigned char *first,
                               size_t first_length, const unsigned char *second, size_t second_length,
                               const unsigned char *key) {
  crypto_generichash_state state;
  sodium.hash_init(&state, key, LIFELOG_SODIUM_KEY_BYTES, output_length);
  sodium.hash_update(&state, first, first_length);
  sodium.hash_update(&state, second, second_length);
  sodium.hash_final(&state, output, output_length);
  sodium.memzero(&state, sizeof state);
}
