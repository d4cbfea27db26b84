@preconcurrency import Glibc

/// A minimal HTTP/1.1 client for `http://` remotes, over a plain socket.
///
/// Loading libcurl costs about 5 ms per process; a sync with a plain-HTTP server does not need it.
/// One request per connection (`Connection: close`), a body by `Content-Length` or chunks, and one
/// deadline for connecting, sending and receiving. `https://` still goes through libcurl.
enum PlainHTTPClient {
  enum Outcome {
    case response(HTTPResponseParser.Response)
    /// The connection failed or broke: worth another try.
    case failure(String)
    /// The server answered something that is not a valid answer, or too large: asking again will
    /// not help.
    case badAnswer(String)
  }

  /// `host`, `port` and path prefix of an `http://` URL, or nil when it is not one.
  static func split(_ url: String) -> (host: String, port: String, prefix: String)? {
    guard url.hasPrefix("http://") else { return nil }
    let rest = url.dropFirst("http://".count)
    let authority = rest.prefix { $0 != "/" }
    let prefix = String(rest.dropFirst(authority.count))
    if authority.hasPrefix("[") {  // [::1]:8787
      guard let close = authority.firstIndex(of: "]") else { return nil }
      let host = String(authority[authority.index(after: authority.startIndex)..<close])
      let after = authority[authority.index(after: close)...]
      return (host, after.hasPrefix(":") ? String(after.dropFirst()) : "80", prefix)
    }
    let parts = authority.split(separator: ":", maxSplits: 1)
    guard let host = parts.first, !host.isEmpty else { return nil }
    return (String(host), parts.count == 2 ? String(parts[1]) : "80", prefix)
  }

  /// One exchange; the answer is read up to `limits` and until `deadline` (Unix ms), whatever the
  /// server sends.
  static func request(
    _ method: String, url: String, path: String, headers: [(String, String)], body: [UInt8]?,
    limits: HTTPResponseParser.Limits, deadline: Int64, now: () -> Int64
  ) -> Outcome {
    guard let (host, port, prefix) = split(url) else { return .failure("not an http:// address") }
    guard let socket = connect(host: host, port: port, deadline: deadline, now: now) else {
      return .failure("Couldn't connect to server")
    }
    defer { close(socket) }
    var head =
      "\(method) \(prefix)\(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    // No `Expect: 100-continue`: `lifelog serve` refuses a request at its headers (no token, too
    // large, over a limit) by answering at once and closing, and the answer is read below even
    // when sending the body then breaks. Waiting for a `100 Continue` would cost every push a
    // round trip, and a server or proxy that ignores the header a guessed wait (curl's second);
    // the libcurl path turns it off too (lifelog_curl.c).
    head += "Content-Length: \(body?.count ?? 0)\r\n\r\n"
    guard send(Array(head.utf8) + (body ?? []), on: socket, deadline: deadline, now: now) else {
      // A server that refused before reading the body (401, 413) answered and closed, and the
      // unread body reset the connection (EPIPE, ECONNRESET): its answer waits in the socket
      // and says more than the broken send.
      if case .response(let refusal) = receive(
        on: socket, limits: limits, deadline: deadline, now: now)
      {
        return .response(refusal)
      }
      return .failure("the connection broke while sending")
    }
    return receive(on: socket, limits: limits, deadline: deadline, now: now)
  }

  private static func connect(
    host: String, port: String, deadline: Int64, now: () -> Int64
  ) -> Int32? {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, port, &hints, &list) == 0, let first = list else { return nil }
    defer { freeaddrinfo(list) }
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let info = candidate {
      candidate = info.pointee.ai_next
      let descriptor = socket(
        info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
        info.pointee.ai_protocol)
      guard descriptor >= 0 else { continue }
      let flags = fcntl(descriptor, F_GETFL)
      _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
      if Glibc.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0
        || errno == EINPROGRESS,
        wait(for: Int16(POLLOUT), on: descriptor, deadline: deadline, now: now)
      {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 {
          var one: Int32 = 1
          setsockopt(
            descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
          return descriptor
        }
      }
      close(descriptor)
    }
    return nil
  }

  private static func wait(
    for events: Int16, on descriptor: Int32, deadline: Int64, now: () -> Int64
  ) -> Bool {
    while true {
      let remaining = deadline - now()
      guard remaining > 0 else { return false }
      var poller = pollfd(fd: descriptor, events: events, revents: 0)
      let ready = poll(&poller, 1, Int32(clamping: remaining))
      if ready > 0 { return true }
      if ready < 0, errno == EINTR { continue }
      return false
    }
  }

  private static func send(
    _ bytes: [UInt8], on descriptor: Int32, deadline: Int64, now: () -> Int64
  ) -> Bool {
    var offset = 0
    while offset < bytes.count {
      guard wait(for: Int16(POLLOUT), on: descriptor, deadline: deadline, now: now) else {
        return false
      }
      let written = bytes.withUnsafeBytes {
        Glibc.send(
          descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return false
      }
      offset += written
    }
    return true
  }

  /// A whole answer as a server sent it, parsed with the largest cap any answer may have: what a
  /// fuzz harness or a test hands over.
  ///
  /// The client itself parses as the bytes arrive.
  static func parse(_ reply: [UInt8]) -> Outcome {
    do {
      return .response(
        try HTTPResponseParser.parse(
          reply, limits: .init(maxBodyBytes: HTTPTransport.largeAnswerLimit)))
    } catch {
      return error.kind == .cutShort ? .failure(error.description) : .badAnswer(error.description)
    }
  }

  /// The answer: read until it is whole (or the server closes), never past `limits`.
  private static func receive(
    on descriptor: Int32, limits: HTTPResponseParser.Limits, deadline: Int64, now: () -> Int64
  ) -> Outcome {
    var parser = HTTPResponseParser(limits: limits)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    do {
      while !parser.isComplete {
        guard wait(for: Int16(POLLIN), on: descriptor, deadline: deadline, now: now) else {
          return .failure("no complete answer before the deadline")
        }
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          return .failure("the connection broke while receiving the answer")
        }
        if count == 0 { break }
        try parser.consume(chunk[0..<count])
      }
      return .response(try parser.finish())
    } catch {
      return error.kind == .cutShort ? .failure(error.description) : .badAnswer(error.description)
    }
  }
}
