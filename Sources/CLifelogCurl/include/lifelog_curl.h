#ifndef LIFELOG_CURL_H
#define LIFELOG_CURL_H

#include <stddef.h>

/// One HTTP exchange, as the HTTP remote needs it. libcurl is loaded with dlopen the first time a
/// request is made, so the lifelog binary does not link it: commands that never talk to an HTTP
/// remote pay nothing for it at start-up.
typedef struct {
  /// The HTTP status, or 0 when no response arrived.
  long status;
  /// The response body (malloc'd; free with lifelog_http_response_free).
  unsigned char *body;
  size_t body_length;
  /// The Retry-After header's value as sent (cut to 63 bytes), or "" when absent: read in Swift,
  /// by the same code as for plain HTTP.
  char retry_after[64];
  /// The Location header's value as sent (cut to 255 bytes), or "": redirects are never followed.
  char location[256];
  /// The Date header's value as sent (cut to 63 bytes), or "".
  char date[64];
  /// 1 when the body grew past the limit given to lifelog_http_request (the transfer was stopped).
  int too_large;
  /// libcurl's error code (0 when the exchange completed, whatever the status).
  int curl_code;
  /// 1 when the failure was about TLS (certificate, handshake).
  int tls_failure;
  /// A readable description of a failure.
  char error[512];
} lifelog_http_response;

/// Loads libcurl; returns 0, or -1 with a message in `error`.
int lifelog_http_load(char *error, size_t error_length);

/// Performs one request. `bearer` may be NULL; `body` may be NULL for no body; `ca_file` may be
/// NULL to use the system's certificates. The answer's body is read up to `max_body` bytes (past
/// that the transfer stops, with `too_large` set); redirects are not followed; the whole exchange
/// takes at most `timeout_ms`. Returns 0 when a response arrived (any status).
int lifelog_http_request(const char *method, const char *url, const char *bearer, const char *content_type,
                         const unsigned char *body, size_t body_length, long timeout_ms, const char *ca_file,
                         size_t max_body, lifelog_http_response *response);

/// As lifelog_http_request, with `extra_count` more header lines ("Name: value") sent as given: the
/// WebDAV remote's Authorization, Depth, If-None-Match and Overwrite.
int lifelog_http_exchange(const char *method, const char *url, const char *bearer, const char *content_type,
                          const char *const *extra_headers, size_t extra_count, const unsigned char *body,
                          size_t body_length, long timeout_ms, const char *ca_file, size_t max_body,
                          lifelog_http_response *response);

void lifelog_http_response_free(lifelog_http_response *response);

#endif
