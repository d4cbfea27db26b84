@preconcurrency import Glibc

/// One keep-alive connection of the benchmark to `lifelog serve`: writes a request and reads just
/// enough HTTP/1.1 for `lifelog serve`'s answers (a status line, headers, a `Content-Length` body).
final class HTTPConnection {
  struct Response {
    let status: Int
    let body: [UInt8]
    /// The server will close the connection (`Connection: close`).
    let close: Bool
  }

  private let socket: Int32
  private var buffer: [UInt8] = []

  init(port: Int) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw BenchmarkError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(socket)
      throw BenchmarkError("cannot connect to 127.0.0.1:\(port): \(reason)")
    }
    var on: Int32 = 1
    setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
  }

  deinit { Glibc.close(socket) }

  /// Sends one request and reads its whole answer.
  func exchange(_ request: [UInt8]) throws -> Response {
    var offset = 0
    while offset < request.count {
      let sent = request[offset...].withUnsafeBytes {
        send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0, errno == EINTR { continue }
      guard sent > 0 else { throw BenchmarkError("send: \(String(cString: strerror(errno)))") }
      offset += sent
    }
    let headerEnd = try readUntilHeadersEnd()
    let head = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
    let lines = head.split(separator: "\r\n")
    guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
      let status = Int(statusLine.dropFirst(9).prefix(3))
    else { throw BenchmarkError("not an HTTP/1.1 answer: \(head.prefix(100))") }
    var length = 0
    var close = false
    for line in lines.dropFirst() {
      let lower = line.lowercased()
      if lower.hasPrefix("content-length:") {
        length = Int(lower.dropFirst(15).filter(\.isNumber)) ?? 0
      } else if lower.hasPrefix("transfer-encoding:") {
        throw BenchmarkError("a chunked answer, which this client does not read")
      } else if lower.hasPrefix("connection:"), lower.contains("close") {
        close = true
      }
    }
    let bodyStart = headerEnd + 4
    while buffer.count < bodyStart + length { try fill() }
    let body = Array(buffer[bodyStart..<(bodyStart + length)])
    buffer.removeFirst(bodyStart + length)
    return Response(status: status, body: body, close: close)
  }

  /// Reads until the buffer holds `\r\n\r\n`; returns where it starts.
  private func readUntilHeadersEnd() throws -> Int {
    var searchFrom = 0
    while true {
      if buffer.count >= 4 {
        for index in searchFrom...(buffer.count - 4)
        where buffer[index] == 0x0D && buffer[index + 1] == 0x0A && buffer[index + 2] == 0x0D
          && buffer[index + 3] == 0x0A
        {
          return index
        }
        searchFrom = buffer.count - 3
      }
      try fill()
    }
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw BenchmarkError("the server closed the connection") }
      buffer.append(contentsOf: chunk[0..<count])
      return
    }
  }
}
