import CLifelogCurl
@preconcurrency import Glibc
import LifelogCore
import LifelogProtocol

/// HTTP requests for the HTTP remote, over libcurl (loaded only when first used), with the retry
/// rules of docs/design.md §4.3: `Retry-After` is honoured and network failures are retried with
/// exponential backoff and jitter, all within one deadline; past it, the remote is unavailable
/// (exit 69).
///
/// Every answer is read up to a size limit (``answerLimit(for:)``) and parsed by
/// ``HTTPResponseParser`` on both paths; an answer that breaks HTTP or the limit is refused at once
/// (exit 69), never retried, and never followed when it redirects.
final class HTTPTransport {
  typealias Response = HTTPResponseParser.Response

  /// The largest answer to `GET /v1/changes` or `GET /v1/snapshots/{name}`: a snapshot is at most
  /// the server's `--max-body`, which is at most 1 GiB; a page of changes holds at most 4 MiB of
  /// batches (`maxPageBytes`) beyond its first, which may be as large as `--max-body`, and an index
  /// line of at most 1,000 entries.
  ///
  /// So no honest server sends more than 1 GiB + 8 MiB.
  static let largeAnswerLimit = (1 << 30) + (8 << 20)
  /// Every other answer is a small JSON object (a manifest, a key envelope, a count, an error).
  static let smallAnswerLimit = 1 << 20

  /// How many bytes of body an answer to `path` may have.
  static func answerLimit(for path: String) -> Int {
    if path.hasPrefix(APIPath.changes) { return largeAnswerLimit }
    if path.hasPrefix(APIPath.snapshots), !path.hasPrefix(APIPath.latestSnapshot) {
      return largeAnswerLimit
    }
    return smallAnswerLimit
  }

  /// How requests prove who sends them.
  enum Credentials {
    /// `lifelog serve`'s bearer token (nil: none).
    case bearer(String?)
    /// A WebDAV account's user name and password (HTTP basic authentication).
    case basic(user: String, password: String)
  }

  /// The base URL requests go to (`http://` or `https://`).
  let baseURL: String
  /// The remote's address as people know it, for messages (`dav://…` for a WebDAV remote).
  let location: String
  let credentials: Credentials
  /// Keeps the token or password out of every message made of the server's words.
  let scrubber: SecretScrubber
  /// Certificates to trust instead of the system's (`LIFELOG_CA_FILE`), for a private server.
  let caFile: String?
  /// Milliseconds since 1970 by which every request, retries included, must be done.
  let deadline: Int64
  let now: @Sendable () -> Int64

  init(
    baseURL: String, location: String? = nil, credentials: Credentials, caFile: String?,
    deadline: Int64, now: @escaping @Sendable () -> Int64
  ) {
    var base = baseURL
    while base.hasSuffix("/") { base.removeLast() }
    self.baseURL = base
    self.location = location ?? base
    self.credentials = credentials
    switch credentials {
    case .bearer(let token): scrubber = SecretScrubber(secrets: token.map { [$0] } ?? [])
    case .basic(let user, let password): scrubber = SecretScrubber(secrets: [password], user: user)
    }
    self.caFile = caFile
    self.deadline = deadline
    self.now = now
  }

  /// Sends a request, retrying what is worth retrying, and returns the first definite response.
  ///
  /// - Throws: ``SyncError`` when the server cannot be reached before the deadline, TLS fails, or
  ///   the token is refused.
  ///
  /// - Parameters:
  ///   - headers: more request headers (WebDAV's `Depth`, `If-None-Match`).
  ///   - limit: the most bytes of body the answer may have; ``answerLimit(for:)`` when nil.
  func send(
    _ method: String, _ path: String, body: [UInt8]? = nil, contentType: String? = nil,
    headers: [(String, String)] = [], limit: Int? = nil
  ) throws(SyncError)
    -> Response
  {
    var attempt = 0
    var lastReason = HTTPTransport.unreachable("no answer")
    while true {
      let remaining = deadline - now()
      guard remaining > 0 else {
        throw .remoteUnavailable(
          location, reason: lastReason)
      }
      switch exchange(
        method, path, body: body, contentType: contentType, headers: headers,
        limit: limit ?? HTTPTransport.answerLimit(for: path), timeoutMs: remaining)
      {
      case .response(let response):
        switch credentials {
        case .bearer:
          if response.status == 401 || response.status == 403 {
            throw .authenticationRefused(
              location, message: serverMessage(response.body))
          }
        case .basic(let user, _):
          // A WebDAV server answers 403 for a path the account may not use, with a good password.
          if response.status == 401 { throw .passwordRefused(location, user: user) }
        }
        if (300...399).contains(response.status) {
          let target = response.location.map(redirectTarget) ?? ""
          throw .remoteUnavailable(
            location,
            reason:
              "the server answered \(response.status), a redirect\(target); lifelog does not follow "
              + "redirects (the credentials must not go elsewhere): if the server moved, remove the remote and add it "
              + "again at its new address")
        }
        if response.status == 429 || response.status == 503 {
          lastReason = HTTPTransport.unreachable("the server is busy (\(response.status))")
          // At least 100 ms, so a Retry-After of 0 or a date gone by cannot make a busy loop.
          let wait = max(100, response.retryAfter?.milliseconds(now: now()) ?? 1000)
          try pause(wait, reason: lastReason)
        } else if HTTPTransport.retriedFailures.contains(response.status) {
          // A failure the server (or a proxy before it) may get past: asked again with backoff.
          lastReason =
            "the server kept failing until the timeout (its last answer: \(response.status))"
          let wait = response.retryAfter.map { max(100, $0.milliseconds(now: now())) }
          try pause(wait ?? HTTPTransport.backoff(attempt: attempt), reason: lastReason)
        } else {
          return response
        }
      case .badAnswer(let message):
        throw .remoteUnavailable(
          location,
          reason: "its answer to \(method) \(HTTPTransport.route(path)) cannot be used: \(message)")
      case .tlsFailure(let message):
        throw .remoteUnavailable(location, reason: "the TLS connection failed: \(message)")
      case .networkFailure(let message):
        lastReason = HTTPTransport.unreachable(message)
        try pause(HTTPTransport.backoff(attempt: attempt), reason: lastReason)
      }
      attempt += 1
    }
  }

  /// Waits `milliseconds` (never past the deadline; giving up if the wait would cross it).
  private func pause(_ milliseconds: Int64, reason: String) throws(SyncError) {
    guard milliseconds < deadline - now() else {
      throw .remoteUnavailable(location, reason: reason)
    }
    usleep(UInt32(clamping: min(milliseconds, 4_000_000) * 1000))
  }

  /// Why the deadline came first, when the last try did not reach the server or found it busy.
  static func unreachable(_ problem: String) -> String {
    "the server could not be reached in time (\(problem))"
  }

  /// Server failures asked again within the deadline (docs/http-api.md): an internal error, a bad
  /// gateway, a gateway timeout; 429 and 503 are waited out after their `Retry-After`.
  static let retriedFailures: Set<Int> = [500, 502, 504]

  /// 100 ms doubling per attempt up to 5 s, with ±50% jitter so clients do not retry in step.
  static func backoff(attempt: Int) -> Int64 {
    let base = min(5_000, 100 << min(attempt, 6))
    return Int64(base / 2 + Int.random(in: 0...base))
  }

  /// A path without its query, for messages.
  static func route(_ path: String) -> String { String(path.prefix { $0 != "?" }) }

  private enum Outcome {
    case response(Response)
    case networkFailure(String)
    case badAnswer(String)
    case tlsFailure(String)
  }

  /// ` to 'LOCATION'` for a redirect's message, unless `location` (whole, or as shown: printable
  /// and cut to 200 bytes) holds a piece of the credentials.
  private func redirectTarget(_ location: String) -> String {
    guard let shown = scrubber.shown(Array(location.utf8), limit: 200, printable: 0x21...0x7E)
    else { return " (its target is left out: it quotes the credentials)" }
    return " to '\(shown)'"
  }

  /// The `Authorization` header's value, if any.
  private var authorization: String? {
    switch credentials {
    case .bearer(let token): token.map { APIHeader.bearer + " " + $0 }
    case .basic(let user, let password):
      "Basic " + Base64.encode(Array((user + ":" + password).utf8))
    }
  }

  private func exchange(
    _ method: String, _ path: String, body: [UInt8]?, contentType: String?,
    headers extra: [(String, String)], limit: Int, timeoutMs: Int64
  )
    -> Outcome
  {
    if caFile == nil, PlainHTTPClient.split(baseURL) != nil {
      var headers: [(String, String)] = []
      if let authorization { headers.append((APIHeader.authorization, authorization)) }
      if let contentType { headers.append((APIHeader.contentType, contentType)) }
      headers += extra
      switch PlainHTTPClient.request(
        method, url: baseURL, path: path, headers: headers, body: body,
        limits: HTTPResponseParser.Limits(maxBodyBytes: limit), deadline: now() + timeoutMs,
        now: now)
      {
      case .response(let response): return .response(response)
      case .failure(let message): return .networkFailure(message)
      case .badAnswer(let message): return .badAnswer(message)
      }
    }
    let url = baseURL + path
    var raw = lifelog_http_response()
    defer { lifelog_http_response_free(&raw) }
    var lines = extra.map { "\($0.0): \($0.1)" }
    if let authorization { lines.append(APIHeader.authorization + ": " + authorization) }
    let code = HTTPTransport.withCStrings(lines) { pointers, count in
      if let body {
        body.withUnsafeBufferPointer { buffer in
          lifelog_http_exchange(
            method, url, nil, contentType, pointers, count, buffer.baseAddress, buffer.count,
            Int(timeoutMs), caFile, limit, &raw)
        }
      } else {
        lifelog_http_exchange(
          method, url, nil, contentType, pointers, count, nil, 0, Int(timeoutMs), caFile, limit,
          &raw)
      }
    }
    if raw.too_large != 0 {
      return .badAnswer("the answer is larger than the \(limit) bytes lifelog accepts here")
    }
    let error = HTTPTransport.text(raw.error)
    // CURLE_WEIRD_SERVER_REPLY: not HTTP, or a Content-Length libcurl refused.
    if raw.curl_code == 8 {
      return .badAnswer("libcurl could not read it (\(error))")
    }
    guard code == 0 else {
      return raw.tls_failure != 0 ? .tlsFailure(error) : .networkFailure(error)
    }
    let bytes = raw.body.map { Array(UnsafeBufferPointer(start: $0, count: raw.body_length)) } ?? []
    // Whole: the redirect's message checks it for the credentials, then cuts and filters it.
    let location = HTTPTransport.text(raw.location)
    return .response(
      Response(
        status: raw.status, body: bytes,
        retryAfter: HTTPResponseParser.retryAfter(HTTPTransport.text(raw.retry_after)),
        location: location.isEmpty ? nil : location,
        date: HTTPResponseParser.httpDate(
          Array(HTTPResponseParser.trimmed(Array(HTTPTransport.text(raw.date).utf8)[...])))))
  }

  /// Calls `body` with `strings` as an array of C strings that lives as long as the call.
  private static func withCStrings<T>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?, Int) -> T
  ) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
  }

  /// A NUL-terminated C array inside a struct, as text.
  private static func text<T>(_ array: T) -> String {
    withUnsafeBytes(of: array) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
  }

  /// What the server said in `body` (``errorMessage(_:)``), unless the body, or the message
  /// taken from it, holds a piece of the token or password these requests carry
  /// (``SecretScrubber``): then only that it was withheld.
  func serverMessage(_ body: [UInt8]) -> String {
    let message = HTTPTransport.errorMessage(body)
    return scrubber.reveals(body) || scrubber.reveals(message) ? SecretScrubber.withheld : message
  }

  /// The `message` of a JSON error body, or a short form of the body.
  static func errorMessage(_ body: [UInt8]) -> String {
    if let error = try? ErrorBody(parsing: body) { return error.message }
    return String(decoding: body.prefix(200), as: UTF8.self)
  }
}
