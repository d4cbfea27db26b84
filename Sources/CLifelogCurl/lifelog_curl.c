#include "lifelog_curl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
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

static size_t collect_body(char *data, size_t size, size_t count, void *context) {
  lifelog_http_response *response = context;
  size_t length = size * count;
  unsigned char *grown = realloc(response->body, response->body_length + length + 1);
  if (!grown) return 0;
  memcpy(grown + response->body_length, data, length);
  response->body = grown;
  response->body_length += length;
  return length;
}

static size_t collect_header(char *data, size_t size, size_t count, void *context) {
  lifelog_http_response *response = context;
  size_t length = size * count;
  static const char name[] = "retry-after:";
  if (length > sizeof name - 1 && strncasecmp(data, name, sizeof name - 1) == 0) {
    char value[32] = {0};
    size_t value_length = length - (sizeof name - 1);
    if (value_length >= sizeof value) value_length = sizeof value - 1;
    memcpy(value, data + sizeof name - 1, value_length);
    long seconds = strtol(value, NULL, 10);
    response->retry_after = seconds >= 0 ? seconds : -1;
  }
  return length;
}

int lifelog_http_request(const char *method, const char *url, const char *bearer, const char *content_type,
                         const unsigned char *body, size_t body_length, long timeout_ms, const char *ca_file,
                         lifelog_http_response *response) {
  memset(response, 0, sizeof *response);
  response->retry_after = -1;
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
  headers = curl.slist_append(headers, "Expect:");
  curl.easy_setopt(handle, CURLOPT_URL, url);
  curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, collect_body);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, response);
  curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, collect_header);
  curl.easy_setopt(handle, CURLOPT_HEADERDATA, response);
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
