/*
 * One file over 500 lines on purpose: the dlsym table, the server and request structs and the
 * libmicrohttpd callbacks that share them (private to this file) are one unit; splitting would
 * expose those structs in a header for no reader's gain.
 *
 * libmicrohttpd, loaded at run time (see include/lifelog_httpd.h for why and how it is used).
 * <microhttpd.h> is included for its types and constants only; every function is looked up
 * with dlsym, so nothing here links against the library.
 */
#define _GNU_SOURCE
#include "lifelog_httpd.h"
#include "lifelog_slots.h"

#include <dlfcn.h>
#include <limits.h>
#include <errno.h>
#include <malloc.h>
#include <netdb.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

/* ---- The library's functions, looked up once ---- */

typedef struct MHD_Daemon *(*start_daemon_fn)(unsigned int, uint16_t, MHD_AcceptPolicyCallback,
                                              void *, MHD_AccessHandlerCallback, void *, ...);
static struct {
  void *handle;
  start_daemon_fn start_daemon;
  void (*stop_daemon)(struct MHD_Daemon *);
  MHD_socket (*quiesce_daemon)(struct MHD_Daemon *);
  const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...);
  const char *(*lookup_connection_value)(struct MHD_Connection *, enum MHD_ValueKind,
                                         const char *);
  int (*get_connection_values)(struct MHD_Connection *, enum MHD_ValueKind,
                               MHD_KeyValueIterator, void *);
  struct MHD_Response *(*create_response_from_buffer)(size_t, void *, enum MHD_ResponseMemoryMode);
  enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
  enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
  void (*destroy_response)(struct MHD_Response *);
  enum MHD_Result (*is_feature_supported)(enum MHD_FEATURE);
  const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *,
                                                         enum MHD_ConnectionInfoType, ...);
} mhd;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

#define LOOKUP(field, name)                                                                    \
  do {                                                                                         \
    *(void **)(&mhd.field) = dlsym(handle, name);                                              \
    if (mhd.field == NULL) {                                                                   \
      snprintf(error, error_size, "libmicrohttpd.so.12 lacks %s; install libmicrohttpd12", name); \
      dlclose(handle);                                                                         \
      pthread_mutex_unlock(&load_lock);                                                        \
      return -1;                                                                               \
    }                                                                                          \
  } while (0)

void lh_keep_freed_memory(int bytes) {
  mallopt(M_MMAP_THRESHOLD, bytes);
  mallopt(M_TRIM_THRESHOLD, bytes);
}

int lh_load(char *error, size_t error_size) {
  pthread_mutex_lock(&load_lock);
  if (mhd.handle != NULL) {
    pthread_mutex_unlock(&load_lock);
    return 0;
  }
  void *handle = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    snprintf(error, error_size,
             "cannot load libmicrohttpd (%s); install it with 'apt install libmicrohttpd12'",
             dlerror());
    pthread_mutex_unlock(&load_lock);
    return -1;
  }
  LOOKUP(start_daemon, "MHD_start_daemon");
  LOOKUP(stop_daemon, "MHD_stop_daemon");
  LOOKUP(quiesce_daemon, "MHD_quiesce_daemon");
  LOOKUP(get_daemon_info, "MHD_get_daemon_info");
  LOOKUP(lookup_connection_value, "MHD_lookup_connection_value");
  LOOKUP(get_connection_values, "MHD_get_connection_values");
  LOOKUP(create_response_from_buffer, "MHD_create_response_from_buffer");
  LOOKUP(add_response_header, "MHD_add_response_header");
  LOOKUP(queue_response, "MHD_queue_response");
  LOOKUP(destroy_response, "MHD_destroy_response");
  LOOKUP(is_feature_supported, "MHD_is_feature_supported");
  LOOKUP(get_connection_info, "MHD_get_connection_info");
  mhd.handle = handle;
  pthread_mutex_unlock(&load_lock);
  return 0;
}

/* ---- SHA-256 from OpenSSL's libcrypto, when it is there ---- */

/* libcrypto's SHA256() uses the CPU's SHA extensions where it has them: about five times the
 * speed of the portable Swift code (LifelogCore's SHA256) on a push's 21 KB. Loaded once, with
 * dlopen, the first time it is asked for; without it, lh_sha256 answers -1 and the caller hashes
 * in Swift. */
typedef unsigned char *(*sha256_fn)(const unsigned char *, size_t, unsigned char *);
static sha256_fn crypto_sha256;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

/* PKCS5_PBKDF2_HMAC and EVP_sha256, for the slow hash of share passcodes. */
typedef int (*pbkdf2_fn)(const char *, int, const unsigned char *, int, int, const void *, int,
                         unsigned char *);
typedef const void *(*evp_md_fn)(void);
static pbkdf2_fn crypto_pbkdf2;
static evp_md_fn crypto_evp_sha256;

static void load_crypto(void) {
  void *handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) return;
  *(void **)(&crypto_sha256) = dlsym(handle, "SHA256");
  *(void **)(&crypto_pbkdf2) = dlsym(handle, "PKCS5_PBKDF2_HMAC");
  *(void **)(&crypto_evp_sha256) = dlsym(handle, "EVP_sha256");
  if (crypto_pbkdf2 == NULL || crypto_evp_sha256 == NULL) crypto_pbkdf2 = NULL;
  if (crypto_sha256 == NULL && crypto_pbkdf2 == NULL) dlclose(handle);
}

int lh_pbkdf2_sha256(const uint8_t *password, size_t password_length, const uint8_t *salt,
                     size_t salt_length, unsigned int iterations, uint8_t *key, size_t key_length) {
  pthread_once(&crypto_once, load_crypto);
  if (crypto_pbkdf2 == NULL || password_length > INT_MAX || salt_length > INT_MAX ||
      iterations == 0 || iterations > INT_MAX || key_length == 0 || key_length > INT_MAX) {
    return -1;
  }
  static const uint8_t empty = 0;
  return crypto_pbkdf2(password_length > 0 ? (const char *)password : (const char *)&empty,
                       (int)password_length, salt_length > 0 ? salt : &empty, (int)salt_length,
                       (int)iterations, crypto_evp_sha256(), (int)key_length, key) == 1
             ? 0
             : -1;
}

int lh_sha256_available(void) {
  pthread_once(&crypto_once, load_crypto);
  return crypto_sha256 != NULL;
}

int lh_sha256(const uint8_t *data, size_t length, uint8_t digest[32]) {
  if (!lh_sha256_available()) return -1;
  static const uint8_t empty = 0;
  crypto_sha256(data != NULL ? data : &empty, length, digest);
  return 0;
}

/* ---- Servers and requests ---- */

struct lh_server {
  struct MHD_Daemon *daemon;
  lh_handler handler;
  void *context;
  size_t max_body;
  /* Connections counted by address, with the head deadline (lifelog_slots.h). */
  lh_slots *slots;
  atomic_uint active;
  atomic_int started;
  MHD_socket quiesced_socket;
  struct sockaddr_storage address;
  char *tls_cert;
  char *tls_key;
  /* The last message libmicrohttpd logged while starting, for the error. */
  char start_message[256];
};

typedef struct lh_answer {
  unsigned int status;
  char *headers;
  uint8_t *body;
  size_t length;
} lh_answer;

struct lh_request {
  lh_server *server;
  struct MHD_Connection *connection;
  const char *method;
  const char *path;
  uint64_t started_ns;
  int64_t tag;
  int phase;
  int answered;
  int too_large;
  /* Counted in the server's `active` (from its admission until it completes). */
  int counted;
  /* A body was declared (Content-Length above 0, or Transfer-Encoding). */
  int has_body;
  uint64_t declared_length;
  uint8_t *body;
  size_t length;
  size_t capacity;
  /* An answer given in LH_PHASE_HEADERS (a request with a body refused), sent with
   * "Connection: close" once the handler returns. */
  lh_answer *deferred;
  enum MHD_Result queued;
};

static uint64_t monotonic_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static void log_message(void *cls, const char *format, va_list arguments) {
  lh_server *server = cls;
  if (!atomic_load(&server->started)) {
    vsnprintf(server->start_message, sizeof server->start_message, format, arguments);
    size_t length = strlen(server->start_message);
    while (length > 0 && (server->start_message[length - 1] == '\n' ||
                          server->start_message[length - 1] == '.')) {
      server->start_message[--length] = '\0';
    }
    return;
  }
  char line[512];
  int length = snprintf(line, sizeof line, "libmicrohttpd: ");
  vsnprintf(line + length, sizeof line - (size_t)length, format, arguments);
  size_t total = strlen(line);
  if (total == 0 || line[total - 1] != '\n') {
    if (total + 1 < sizeof line) {
      line[total++] = '\n';
      line[total] = '\0';
    }
  }
  ssize_t ignored = write(STDERR_FILENO, line, total);
  (void)ignored;
}

static void free_answer(lh_answer *answer) {
  if (answer == NULL) return;
  free(answer->headers);
  free(answer->body);
  free(answer);
}

static enum MHD_Result queue(lh_request *request, unsigned int status, const char *headers,
                             const uint8_t *body, size_t length, int close) {
  struct MHD_Response *response =
      mhd.create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
  if (response == NULL) return MHD_NO;
  if (headers != NULL) {
    char *copy = strdup(headers);
    if (copy == NULL) {
      mhd.destroy_response(response);
      return MHD_NO;
    }
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
      char *colon = strchr(line, ':');
      if (colon == NULL) continue;
      *colon = '\0';
      const char *value = colon + 1;
      while (*value == ' ') value++;
      mhd.add_response_header(response, line, value);
    }
    free(copy);
  }
  if (close) mhd.add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
  enum MHD_Result result = mhd.queue_response(request->connection, status, response);
  mhd.destroy_response(response);
  request->answered = 1;
  return result;
}

static enum MHD_Result send_deferred(lh_request *request, int close) {
  lh_answer *answer = request->deferred;
  return queue(request, answer->status, answer->headers, answer->body, answer->length, close);
}

static void append(lh_request *request, const char *data, size_t size) {
  if (request->too_large) return;
  if (request->length + size > request->server->max_body) {
    request->too_large = 1;
    free(request->body);
    request->body = NULL;
    request->length = request->capacity = 0;
    return;
  }
  if (request->length + size > request->capacity) {
    size_t capacity = request->capacity ? request->capacity : 16384;
    while (capacity < request->length + size) capacity *= 2;
    if (capacity > request->server->max_body) capacity = request->server->max_body;
    uint8_t *grown = realloc(request->body, capacity);
    if (grown == NULL) {
      request->too_large = 1;
      free(request->body);
      request->body = NULL;
      request->length = request->capacity = 0;
      return;
    }
    request->body = grown;
    request->capacity = capacity;
  }
  memcpy(request->body + request->length, data, size);
  request->length += size;
}

/* The connection's entry in the server's slots (NULL when it has none). */
static lh_slot *slot_of(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      mhd.get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info != NULL ? info->socket_context : NULL;
}

static enum MHD_Result on_accept(void *cls, const struct sockaddr *address, socklen_t length) {
  (void)length;
  lh_server *server = cls;
  return lh_slots_admit(server->slots, address) ? MHD_YES : MHD_NO;
}

static void on_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                          enum MHD_ConnectionNotificationCode code) {
  lh_server *server = cls;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *address =
        mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const union MHD_ConnectionInfo *socket =
        mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (address == NULL || socket == NULL) return;
    *socket_context = lh_slots_open(server->slots, address->client_addr, socket->connect_fd);
  } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
    lh_slots_close(server->slots, *socket_context);
    *socket_context = NULL;
  }
}

static enum MHD_Result on_access(void *cls, struct MHD_Connection *connection, const char *url,
                                 const char *method, const char *version, const char *upload_data,
                                 size_t *upload_data_size, void **con_cls) {
  (void)version;
  lh_server *server = cls;
  lh_request *request = *con_cls;
  if (request == NULL) {
    /* Headers only. */
    request = calloc(1, sizeof *request);
    if (request == NULL) return MHD_NO;
    request->server = server;
    request->connection = connection;
    request->method = method;
    request->path = url;
    request->started_ns = monotonic_ns();
    request->phase = LH_PHASE_HEADERS;
    *con_cls = request;
    lh_slots_head_done(server->slots, slot_of(connection));
    const char *declared =
        mhd.lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (declared != NULL) {
      request->declared_length = strtoull(declared, NULL, 10);
      if (request->declared_length > server->max_body) request->too_large = 1;
    }
    request->has_body =
        request->declared_length > 0 ||
        mhd.lookup_connection_value(connection, MHD_HEADER_KIND,
                                    MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL;
    /* Counted while the handler looks at it, so the handler's limit includes this request. */
    atomic_fetch_add(&server->active, 1);
    request->counted = 1;
    /* Without a body there is nothing to refuse to read: the handler sees the request once, on
     * the next call (LH_PHASE_WHOLE; answering in this one would close the connection). */
    if (!request->has_body) return MHD_YES;
    server->handler(server->context, request, LH_PHASE_HEADERS);
    if (request->deferred == NULL) {
      /* Admitted without a token (tag 0: a pairing code's redemption): its small body must come
       * within the head's deadline, and it takes no place among the requests handled at once
       * while it comes, so slow bodies from clients with no token cannot hold those places. */
      if (request->tag == 0) {
        lh_slots_head_extends(server->slots, slot_of(connection));
        atomic_fetch_sub(&server->active, 1);
        request->counted = 0;
      }
      return MHD_YES;
    }
    /* Refused at its headers (no token, a bad route, too large, over a limit): it is no longer
     * counted, its body is never read: answered now and its connection closed, so a slow or
     * endless upload costs nothing past its headers. */
    atomic_fetch_sub(&server->active, 1);
    request->counted = 0;
    return send_deferred(request, 1);
  }
  if (request->answered) {
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (*upload_data_size != 0) {
    append(request, upload_data, *upload_data_size);
    *upload_data_size = 0;
    /* A body sent without a length (chunked) that grows past the limit: closed at once rather
     * than read on without end. */
    return request->too_large ? MHD_NO : MHD_YES;
  }
  request->phase = request->has_body ? LH_PHASE_COMPLETE : LH_PHASE_WHOLE;
  if (request->has_body && request->tag == 0) lh_slots_head_done(server->slots, slot_of(connection));
  request->queued = MHD_YES;
  server->handler(server->context, request, request->phase);
  if (!request->answered) {
    static const char body[] =
        "{\"error\":{\"code\":\"internal\",\"message\":\"The server did not answer\"}}\n";
    return queue(request, 500, "Content-Type: application/json", (const uint8_t *)body,
                 sizeof body - 1, 0);
  }
  return request->queued;
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                         enum MHD_RequestTerminationCode code) {
  (void)code;
  lh_server *server = cls;
  lh_request *request = *con_cls;
  if (request == NULL) return;
  /* The answer is sent: a next request on this connection has its own head deadline. */
  lh_slots_head_begins(server->slots, slot_of(connection));
  *con_cls = NULL;
  free(request->body);
  free_answer(request->deferred);
  int counted = request->counted;
  free(request);
  if (counted) atomic_fetch_sub(&server->active, 1);
}

static int resolve(const char *host, uint16_t port, struct sockaddr_storage *address,
                   char *error, size_t error_size) {
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  struct addrinfo *found = NULL;
  int status = getaddrinfo(host, NULL, &hints, &found);
  if (status != 0 || found == NULL) {
    snprintf(error, error_size, "cannot resolve '%s' (%s)", host, gai_strerror(status));
    return -1;
  }
  memcpy(address, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  if (address->ss_family == AF_INET6) {
    ((struct sockaddr_in6 *)address)->sin6_port = htons(port);
  } else {
    ((struct sockaddr_in *)address)->sin_port = htons(port);
  }
  return 0;
}

lh_server *lh_start(const lh_config *config, lh_handler handler, void *context, char *error,
                    size_t error_size) {
  if (lh_load(error, error_size) != 0) return NULL;
  lh_server *server = calloc(1, sizeof *server);
  if (server == NULL) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  server->handler = handler;
  server->context = context;
  server->max_body = config->max_body;
  server->quiesced_socket = MHD_INVALID_SOCKET;
  const char *host = (config->host != NULL && config->host[0] != '\0') ? config->host : "127.0.0.1";
  if (resolve(host, config->port, &server->address, error, error_size) != 0) {
    free(server);
    return NULL;
  }
  unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;
  if (server->address.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
  struct MHD_OptionItem options[16];
  size_t count = 0;
#define OPTION(name, number, pointer) \
  options[count++] = (struct MHD_OptionItem){(name), (intptr_t)(number), (pointer)}
  /* MHD_OPTION_ARRAY items carry one value each; options that take two (a callback and its
   * closure) are given directly to MHD_start_daemon instead, below. */
  OPTION(MHD_OPTION_SOCK_ADDR, 0, &server->address);
  OPTION(MHD_OPTION_CONNECTION_TIMEOUT, config->connection_timeout, NULL);
  /* The limits are kept by the slots; libmicrohttpd's own limit is above theirs, with room for
   * the connections closed for newcomers that are still closing (and split among the threads). */
  unsigned int limit = config->connection_limit > 0 ? config->connection_limit : 1024;
  unsigned int threads = config->threads > 1 ? config->threads : 1;
  unsigned int capacity = limit + limit / 2 + 8 * threads;
  lh_slot_limits limits = {limit, config->per_address_limit, limit / 4,
                           (uint64_t)config->head_timeout * 1000000000u};
  server->slots = lh_slots_create(capacity, limits);
  if (server->slots == NULL) {
    snprintf(error, error_size, "out of memory");
    free(server);
    return NULL;
  }
  OPTION(MHD_OPTION_CONNECTION_LIMIT, capacity, NULL);
  if (config->threads > 1) OPTION(MHD_OPTION_THREAD_POOL_SIZE, config->threads, NULL);
  OPTION(MHD_OPTION_LISTEN_BACKLOG_SIZE, 511, NULL);
  if (config->tls_cert_pem != NULL && config->tls_key_pem != NULL) {
    if (mhd.is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
      snprintf(error, error_size, "this libmicrohttpd was built without TLS");
      lh_slots_destroy(server->slots);
      free(server);
      return NULL;
    }
    server->tls_cert = strdup(config->tls_cert_pem);
    server->tls_key = strdup(config->tls_key_pem);
    flags |= MHD_USE_TLS;
    OPTION(MHD_OPTION_HTTPS_MEM_CERT, 0, server->tls_cert);
    OPTION(MHD_OPTION_HTTPS_MEM_KEY, 0, server->tls_key);
  }
  OPTION(MHD_OPTION_END, 0, NULL);
#undef OPTION
  server->daemon = mhd.start_daemon(
      flags, config->port, on_accept, server, on_access, server, MHD_OPTION_EXTERNAL_LOGGER,
      log_message, server, MHD_OPTION_NOTIFY_COMPLETED, on_completed, server,
      MHD_OPTION_NOTIFY_CONNECTION, on_connection, server, MHD_OPTION_ARRAY, options,
      MHD_OPTION_END);
  if (server->daemon == NULL) {
    int saved = errno;
    if (server->start_message[0] != '\0') {
      snprintf(error, error_size, "%s", server->start_message);
    } else {
      snprintf(error, error_size, "%s", saved ? strerror(saved) : "libmicrohttpd refused to start");
    }
    free(server->tls_cert);
    free(server->tls_key);
    lh_slots_destroy(server->slots);
    free(server);
    return NULL;
  }
  atomic_store(&server->started, 1);
  return server;
}

uint16_t lh_port(const lh_server *server) {
  const union MHD_DaemonInfo *info = mhd.get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info != NULL ? info->port : 0;
}

unsigned int lh_active_requests(const lh_server *server) {
  return atomic_load(&((lh_server *)server)->active);
}

void lh_quiesce(lh_server *server) {
  if (server->quiesced_socket == MHD_INVALID_SOCKET) {
    server->quiesced_socket = mhd.quiesce_daemon(server->daemon);
  }
}

void lh_stop(lh_server *server) {
  mhd.stop_daemon(server->daemon);
  if (server->quiesced_socket != MHD_INVALID_SOCKET) close(server->quiesced_socket);
  lh_slots_destroy(server->slots);
  free(server->tls_cert);
  free(server->tls_key);
  free(server);
}

/* ---- Reading a request ---- */

const char *lh_method(const lh_request *request) { return request->method; }
const char *lh_path(const lh_request *request) { return request->path; }

/* Hands each value of one kind to the visitor given to lh_headers or lh_query. */
typedef struct {
  lh_visitor visit;
  void *context;
} visit_context;

static enum MHD_Result visit_value(void *cls, enum MHD_ValueKind kind, const char *name,
                                   const char *value) {
  (void)kind;
  visit_context *visit = cls;
  visit->visit(visit->context, name, value);
  return MHD_YES;
}

void lh_headers(const lh_request *request, lh_visitor visit, void *context) {
  visit_context each = {visit, context};
  mhd.get_connection_values(request->connection, MHD_HEADER_KIND, visit_value, &each);
}

void lh_query_arguments(const lh_request *request, lh_visitor visit, void *context) {
  visit_context each = {visit, context};
  mhd.get_connection_values(request->connection, MHD_GET_ARGUMENT_KIND, visit_value, &each);
}

const uint8_t *lh_body(const lh_request *request, size_t *length) {
  *length = request->length;
  return request->body;
}

int lh_body_too_large(const lh_request *request) { return request->too_large; }
uint64_t lh_started_ns(const lh_request *request) { return request->started_ns; }
void lh_request_client_key(const lh_request *request, uint8_t key[16]) {
  const union MHD_ConnectionInfo *address =
      mhd.get_connection_info(request->connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  lh_client_key(address != NULL ? address->client_addr : NULL, key);
}
unsigned int lh_request_active(const lh_request *request) {
  return atomic_load(&request->server->active);
}
void lh_set_tag(lh_request *request, int64_t tag) { request->tag = tag; }
int64_t lh_tag(const lh_request *request) { return request->tag; }

/* ---- Answering ---- */

int lh_respond(lh_request *request, unsigned int status, const char *headers, const uint8_t *body,
               size_t length) {
  if (request->answered || request->deferred != NULL) return -1;
  if (request->phase != LH_PHASE_HEADERS) {
    request->queued = queue(request, status, headers, body, length, 0);
    return request->queued == MHD_YES ? 0 : -1;
  }
  lh_answer *answer = calloc(1, sizeof *answer);
  if (answer == NULL) return -1;
  answer->status = status;
  answer->headers = headers != NULL ? strdup(headers) : NULL;
  if (length > 0) {
    answer->body = malloc(length);
    if (answer->body == NULL) {
      free_answer(answer);
      return -1;
    }
    memcpy(answer->body, body, length);
  }
  answer->length = length;
  request->deferred = answer;
  return 0;
}
