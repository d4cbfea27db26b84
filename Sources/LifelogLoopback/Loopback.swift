@preconcurrency import Glibc

/// 127.0.0.1 for the servers the tests and the benchmark start (docs/testing.md).
///
/// A free port, and whether something answers on one. No Foundation, so the benchmark may use it
/// too.
public enum Loopback {
  /// The IPv4 address 127.0.0.1:`port`.
  public static func address(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(truncatingIfNeeded: port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }

  /// A port nothing listens on now (the kernel's pick); nil when no socket can be bound.
  ///
  /// Another process may take it before the caller binds it: callers that can, retry.
  public static func freePort() -> Int? {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return nil }
    defer { close(socket) }
    var address = Loopback.address(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
  }

  /// Whether something accepts connections on 127.0.0.1:`port`: a server started in the
  /// background is up.
  public static func answers(port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = Loopback.address(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
