@preconcurrency import Glibc
import CLifelogCurl

/// HTTP requests for the HTTP remote, over libcurl (loaded only when first used), with the retry
/// rules of DESIGN §4: `Retry-After` is honoured and network failures are retried with exponential
/// backoff and jitter, all within one deadline; past it, the remote is unavailable (exit 69).
final class HTTPTransport {
  struct Response {
    let status: Int
    let body: [UInt8]
    let retryAfter: Int?
  }

  let baseURL: String
  let token: String?
  /// Certificates to trust instead of the system's (`LIFELOG_CA_FILE`), for a private server.
  let caFile: String?
  /// Milliseconds since 1970 by which every request, retries included, must be done.
  let deadline: Int64
  let now: @Sendable () -> Int64

  init(baseURL: String, token: String?, caFile: String?, deadline: Int64, now: @escaping @Sendable () -> Int64) {
    var base = baseURL
    while base.hasSuffix("/") { base.removeLast() }
    self.baseURL = base
    self.token = token
    self.caFile = caFile
    self.deadline = deadline
    self.now = now
  }

  /// Sends a request, retrying what is worth retrying, and returns the first definite response.
  ///
  /// - Throws: ``SyncError`` when the server cannot be reached before the deadline, TLS fails, or
  ///   the token is refused.
  func send(_ method: String, _ path: String, body: [UInt8]? = nil, contentType: String? = nil) throws(SyncError)
    -> Response
  {
    var attempt = 0
    var lastProblem = "no answer"
    while true {
      let remaining = deadline - now()
      guard remaining > 0 else {
        throw .remoteUnavailable(baseURL, reason: "the server could not be reached in time (\(lastProblem))")
      }
      switch exchange(method, baseURL + path, body: body, contentType: contentType, timeoutMs: remaining) {
      case .response(let response):
        if response.status == 401 || response.status == 403 {
          throw .authenticationRefused(baseURL, message: HTTPTransport.errorMessage(response.body))
        }
        if response.status == 429 || response.status == 503 {
          lastProblem = "the server is busy (\(response.status))"
          let wait = Int64(response.retryAfter ?? 1) * 1000
          try pause(wait, attempt: attempt, problem: lastProblem)
        } else {
          return response
        }
      case .tlsFailure(let message):
        throw .remoteUnavailable(baseURL, reason: "the TLS connection failed: \(message)")
      case .networkFailure(let message):
        lastProblem = message
        try pause(HTTPTransport.backoff(attempt: attempt), attempt: attempt, problem: message)
      }
      attempt += 1
    }
  }

  /// Waits `milliseconds` (never past the deadline; giving up if the wait would cross it).
  private func pause(_ milliseconds: Int64, attempt: Int, problem: String) throws(SyncError) {
    guard now() + milliseconds < deadline else {
      throw .remoteUnavailable(baseURL, reason: "the server could not be reached in time (\(problem))")
    }
    usleep(UInt32(clamping: milliseconds * 1000))
  }

  /// 100 ms doubling per attempt up to 5 s, with ±50% jitter so clients do not retry in step.
  static func backoff(attempt: Int) -> Int64 {
    let base = min(5_000, 100 << min(attempt, 6))
    return Int64(base / 2 + Int.random(in: 0...base))
  }

  private enum Outcome {
    case response(Response)
    case networkFailure(String)
    case tlsFailure(String)
  }

  private func exchange(_ method: String, _ url: String, body: [UInt8]?, contentType: String?, timeoutMs: Int64)
    -> Outcome
  {
    if caFile == nil, PlainHTTPClient.split(baseURL) != nil {
      var headers: [(String, String)] = []
      if let token { headers.append(("Authorization", "Bearer " + token)) }
      if let contentType { headers.append(("Content-Type", contentType)) }
      let path = String(url.dropFirst(baseURL.count))
      switch PlainHTTPClient.request(
        method, url: baseURL, path: path, headers: headers, body: body, deadline: now() + timeoutMs, now: now)
      {
      case .response(let status, let bytes, let retryAfter):
        return .response(Response(status: status, body: bytes, retryAfter: retryAfter))
      case .failure(let message):
        return .networkFailure(message)
      }
    }
    var raw = lifelog_http_response()
    defer { lifelog_http_response_free(&raw) }
    let code: Int32 =
      if let body {
        body.withUnsafeBufferPointer { buffer in
          lifelog_http_request(
            method, url, token, contentType, buffer.baseAddress, buffer.count, Int(timeoutMs), caFile, &raw)
        }
      } else {
        lifelog_http_request(method, url, token, contentType, nil, 0, Int(timeoutMs), caFile, &raw)
      }
    let error = withUnsafeBytes(of: raw.error) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    guard code == 0 else { return raw.tls_failure != 0 ? .tlsFailure(error) : .networkFailure(error) }
    let bytes = raw.body.map { Array(UnsafeBufferPointer(start: $0, count: raw.body_length)) } ?? []
    return .response(Response(status: raw.status, body: bytes, retryAfter: raw.retry_after >= 0 ? raw.retry_after : nil))
  }

  /// The `message` of a JSON error body, or a short form of the body.
  static func errorMessage(_ body: [UInt8]) -> String {
    if let json = try? JSONValue.parse(body), let message = json["error"]?["message"]?.string { return message }
    return String(decoding: body.prefix(200), as: UTF8.self)
  }
}

import LifelogCore
