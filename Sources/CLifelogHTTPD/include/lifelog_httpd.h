/*
 * A small HTTP/1.1 server for `lifelog serve`, on libmicrohttpd.
 *
 * libmicrohttpd is loaded with dlopen() only when a server starts, so the lifelog binary does not
 * depend on it and every other command starts without loading it. The functions here are plain
 * and non-variadic so Swift can call them. A request with a body (a Content-Length above 0, or a
 * Transfer-Encoding) is handed to the handler twice: once when its headers have arrived (phase
 * LH_PHASE_HEADERS; the handler may answer at once: the request then stops counting as active,
 * the answer is sent at once and the connection closed without reading the body), and once when
 * its whole body has arrived (LH_PHASE_COMPLETE; the handler must answer). Bodies are collected
 * here, up to the configured limit. A request without a body is handed over once, when its
 * headers have arrived (LH_PHASE_WHOLE; the handler must answer): admitting it and answering it
 * are one step, with one look at the request.
 */
#ifndef LIFELOG_HTTPD_H
#define LIFELOG_HTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SHA-256 of `length` bytes into `digest`, by OpenSSL's libcrypto (libcrypto.so.3, loaded with
 * dlopen on the first call): 0, or -1 when libcrypto cannot be loaded (hash some other way). */
int lh_sha256(const uint8_t *data, size_t length, uint8_t digest[32]);
/* Whether lh_sha256 can hash (loads libcrypto the first time). */
int lh_sha256_available(void);
/* PBKDF2-HMAC-SHA256 of the password and salt, `iterations` rounds, into `key` (libcrypto's
 * PKCS5_PBKDF2_HMAC): 0, or -1 when libcrypto cannot be loaded (derive some other way). */
int lh_pbkdf2_sha256(const uint8_t *password, size_t password_length, const uint8_t *salt,
                     size_t salt_length, unsigned int iterations, uint8_t *key, size_t key_length);

typedef struct lh_server lh_server;
typedef struct lh_request lh_request;

enum { LH_PHASE_HEADERS = 0, LH_PHASE_COMPLETE = 1, LH_PHASE_WHOLE = 2 };

/* Called on libmicrohttpd's threads. `context` is the one given to lh_start. */
typedef void (*lh_handler)(void *context, lh_request *request, int phase);

typedef struct lh_config {
  /* A numeric address or a host name; NULL or "" for 127.0.0.1. */
  const char *host;
  /* 0 picks a free port; lh_port tells which. */
  uint16_t port;
  unsigned int threads;
  /* Connections open at once (0: 1024); a quarter of them is kept for clients past their
   * request head: slow heads take at most the rest, the one waiting longest making room. */
  unsigned int connection_limit;
  /* Connections open at once from one client address, an IPv6 one counted by its /64 (0: no
   * limit). */
  unsigned int per_address_limit;
  /* Seconds an idle connection is kept. */
  unsigned int connection_timeout;
  /* Seconds a request head may take in all, however it trickles in (0: no deadline). */
  unsigned int head_timeout;
  /* Bodies larger than this are not kept (lh_body_too_large). */
  size_t max_body;
  /* PEM text of the certificate chain and the key; both NULL for plain HTTP. */
  const char *tls_cert_pem;
  const char *tls_key_pem;
} lh_config;

/* What a client address is counted as for per_address_limit: an IPv4 address whole (as
 * ::ffff:a.b.c.d), an IPv6 one by its /64 (the rest zero), since one host usually owns a whole
 * /64 and may use any address in it. */
void lh_client_key(const struct sockaddr *address, uint8_t key[16]);
/* Loads libmicrohttpd. Returns 0, or -1 with a message in `error`. Safe to call again. */
int lh_load(char *error, size_t error_size);

/* Has the process keep freed memory of up to `bytes` for reuse: glibc's mmap and trim thresholds
 * (mallopt), so a request's large buffers are not mapped, faulted in and returned each time. */
void lh_keep_freed_memory(int bytes);

/* Starts listening. Returns NULL with a message in `error` on failure. */
lh_server *lh_start(const lh_config *config, lh_handler handler, void *context, char *error,
                    size_t error_size);
/* The port listened on. */
uint16_t lh_port(const lh_server *server);
/* Requests admitted and not yet completed: requests with a body refused at their headers are not
 * counted (a keep-alive connection between requests has none). */
unsigned int lh_active_requests(const lh_server *server);
/* Stops accepting new connections; requests already begun go on. */
void lh_quiesce(lh_server *server);
/* Closes every connection, stops the threads and frees the server. */
void lh_stop(lh_server *server);

const char *lh_method(const lh_request *request);
/* The path, percent-decoded, without the query. */
const char *lh_path(const lh_request *request);
/* Called once for each header or query argument, in the order the request gave them. `value` is
 * NULL for a query argument without '=' (never for a header). */
typedef void (*lh_visitor)(void *context, const char *name, const char *value);
/* Every request header, or every query argument (percent-decoded). Both are bounded by
 * libmicrohttpd's memory per connection (32 KiB), which refuses a request past it unseen. */
void lh_headers(const lh_request *request, lh_visitor visit, void *context);
void lh_query_arguments(const lh_request *request, lh_visitor visit, void *context);
/* The body collected so far (all of it in LH_PHASE_COMPLETE); may be NULL when empty. */
const uint8_t *lh_body(const lh_request *request, size_t *length);
/* Whether the body is declared to be larger than max_body (a body without a declared length that
 * grows past it closes the connection). */
int lh_body_too_large(const lh_request *request);
/* Requests of this request's server admitted and not yet completed, this one included (in
 * LH_PHASE_HEADERS and LH_PHASE_WHOLE too). */
unsigned int lh_request_active(const lh_request *request);
/* CLOCK_MONOTONIC nanoseconds when the request's headers arrived. */
uint64_t lh_started_ns(const lh_request *request);
/* What the request's client address is counted as (lh_client_key); all zero when unknown. */
void lh_request_client_key(const lh_request *request, uint8_t key[16]);
/* A number the handler keeps with the request between phases (0 at first). */
void lh_set_tag(lh_request *request, int64_t tag);
int64_t lh_tag(const lh_request *request);

/*
 * Answers the request: `headers` is "Name: value" lines separated by "\n" (or NULL), the body is
 * copied. In LH_PHASE_HEADERS the answer refuses the request: sent at once with
 * "Connection: close" (its body is never read).
 * Returns 0, or -1 when the answer could not be queued or the request was already answered.
 */
int lh_respond(lh_request *request, unsigned int status, const char *headers, const uint8_t *body,
               size_t length);

#ifdef __cplusplus
}
#endif

#endif
