#include "lifelog_curl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The libcurl functions used, resolved once with dlsym. */
static struct {
  int loaded;
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_perform)(CURL *);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
  void (*easy_cleanup)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

int lifelog_http_load(char *error, size_t error_length) {
  pthread_mutex_lock(&load_lock);
  if (curl.loaded) {
    pthread_mutex_unlock(&load_lock);
    return 0;
  }
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!library) library = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(error, error_length, "cannot load libcurl (install the libcurl4 package): %s", dlerror());
    pthread_mutex_unlock(&load_lock);
    return -1;
  }
#define RESOLVE(field, name)                                                        \
  *(void **)(&curl.field) = dlsym(library, name);                                   \
  if (!curl.field) {                                                                \
    snprintf(error, error_length, "libcurl lacks %s", name);                        \
    pthread_mutex_unlock(&load_lock);                                               \
    return -1;                                                                      \
  }
  RESOLVE(global_init, "curl_global_init")
  RESOLVE(easy_init, "curl_easy_init")
  RESOLVE(easy_setopt, "curl_easy_setopt")
  RESOLVE(easy_perform, "curl_easy_perform")
  RESOLVE(easy_getinfo, "curl_easy_getinfo")
  RESOLVE(easy_cleanup, "curl_easy_cleanup")
  RESOLVE(easy_strerror, "curl_easy_strerror")
  RESOLVE(slist_append, "curl_slist_append")
  RESOLVE(slist_free_all, "curl_slist_free_all")
#undef RESOLVE
  curl.global_init(CURL_GLOBAL_DEFAULT);
  curl.loaded = 1;
  pthread_mutex_unlock(&load_lock);
  return 0;
}

/* What a transfer collects, and the most body it may. */
typedef struct {
  lifelog_http_response *response;
  size_t max_body;
  size_t capacity;
} collector;

/* Appends body bytes, growing the buffer by doubling (never past max_body); returning less than
   given makes libcurl stop the transfer with CURLE_WRITE_ERROR. */
static size_t collect_body(char *data, size_t size, size_t count, void *context) {
  collector *collected = context;
  lifelog_http_response *response = collected->response;
  size_t length = size * count;
  if (length > collected->max_body - response->body_length) {
    response->too_large = 1;
    return 0;
  }
  size_t needed = response->body_length + length;
  if (needed > collected->capacity) {
    size_t capacity = collected->capacity ? collected->capacity : 65536;
    while (capacity < needed) capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
    if (capacity > collected->max_body) capacity = collected->max_body;
    unsigned char *grown = realloc(response->body, capacity + 1);
    if (!grown) return 0;
    response->body = grown;
    collected->capacity = capacity;
  }
  memcpy(response->body + response->body_length, data, length);
  response->body_length = needed;
  return length;
}

/* Copies the value of header `name` (lower case, with its colon) into `value`, cut to fit. */
static void copy_header(const char *data, size_t length, const char *name, char *value, size_t value_size) {
  size_t name_length = strlen(name);
  if (length < name_length || strncasecmp(data, name, name_length) != 0) return;
  data += name_length;
  length -= name_length;
  while (length > 0 && (data[length - 1] == '\r' || data[length - 1] == '\n')) length--;
  if (length >= value_size) length = value_size - 1;
  memcpy(value, data, length);
  value[length] = 0;
}

static size_t collect_header(char *data, size_t size, size_t count, void *context) {
  collector *collected = context;
  lifelog_http_response *response = collected->response;
  size_t length = size * count;
  /* A new status line (after an interim 1xx answer) starts a new set of headers. */
  if (length >= 5 && strncmp(data, "HTTP/", 5) == 0) {
    response->retry_after[0] = 0;
    response->location[0] = 0;
    response->date[0] = 0;
  }
  copy_header(data, length, "retry-after:", response->retry_after, sizeof response->retry_after);
  copy_header(data, length, "location:", response->location, sizeof response->location);
  copy_header(data, length, "date:", response->date, sizeof response->date);
  return length;
}

int lifelog_http_request(const char *method, const char *url, const char *bearer, const char *content_type,
                         const unsigned char *body, size_t body_length, long timeout_ms, const char *ca_file,
                         size_t max_body, lifelog_http_response *response) {
  return lifelog_http_exchange(method, url, bearer, content_type, NULL, 0, body, body_length, timeout_ms, ca_file,
                               max_body, response);
}

int lifelog_http_exchange(const char *method, const char *url, const char *bearer, const char *content_type,
                          const char *const *extra_headers, size_t extra_count, const unsigned char *body,
                          size_t body_length, long timeout_ms, const char *ca_file, size_t max_body,
                          lifelog_http_response *response) {
  memset(response, 0, sizeof *response);
  collector collected = {response, max_body, 0};
  if (lifelog_http_load(response->error, sizeof response->error) != 0) return -1;
  CURL *handle = curl.easy_init();
  if (!handle) {
    snprintf(response->error, sizeof response->error, "libcurl could not start a request");
    return -1;
  }
  struct curl_slist *headers = NULL;
  char line[1024];
  if (bearer) {
    snprintf(line, sizeof line, "Authorization: Bearer %s", bearer);
    headers = curl.slist_append(headers, line);
  }
  if (content_type) {
    snprintf(line, sizeof line, "Content-Type: %s", content_type);
    headers = curl.slist_append(headers, line);
  }
  for (size_t index = 0; index < extra_count; index++) headers = curl.slist_append(headers, extra_headers[index]);
  headers = curl.slist_append(headers, "Expect:");
  curl.easy_setopt(handle, CURLOPT_URL, url);
  curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, collect_body);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, &collected);
  curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, collect_header);
  curl.easy_setopt(handle, CURLOPT_HEADERDATA, &collected);
  /* A redirect is answered to the caller, never followed: the token must not go to another host. */
  curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
  curl.easy_setopt(handle, CURLOPT_MAXREDIRS, 0L);
  /* libcurl refuses a declared Content-Length past the limit before reading the body. */
  curl.easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_body);
  curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
  curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
  if (ca_file) curl.easy_setopt(handle, CURLOPT_CAINFO, ca_file);
  if (body) {
    curl.easy_setopt(handle, CURLOPT_POSTFIELDS, (const char *)body);
    curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
  } else if (strcmp(method, "GET") == 0) {
    curl.easy_setopt(handle, CURLOPT_HTTPGET, 1L);
  }
  CURLcode code = curl.easy_perform(handle);
  if (code == CURLE_FILESIZE_EXCEEDED) response->too_large = 1;
  response->curl_code = (int)code;
  if (code == CURLE_OK) {
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response->status);
  } else {
    snprintf(response->error, sizeof response->error, "%s", curl.easy_strerror(code));
    switch (code) {
      case CURLE_SSL_CONNECT_ERROR:
      case CURLE_PEER_FAILED_VERIFICATION:
      case CURLE_SSL_CERTPROBLEM:
      case CURLE_SSL_CIPHER:
      case CURLE_SSL_CACERT_BADFILE:
      case CURLE_SSL_ISSUER_ERROR:
      case CURLE_SSL_INVALIDCERTSTATUS:
      case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        response->tls_failure = 1;
        break;
      default:
        break;
    }
  }
  curl.slist_free_all(headers);
  curl.easy_cleanup(handle);
  return code == CURLE_OK ? 0 : -1;
}

void lifelog_http_response_free(lifelog_http_response *response) {
  free(response->body);
  response->body = NULL;
  response->body_length = 0;
}
