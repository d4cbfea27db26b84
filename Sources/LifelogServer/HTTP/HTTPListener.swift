import CLifelogHTTPD
import Glibc

/// Answers the requests an ``HTTPListener`` receives, on libmicrohttpd's threads.
///
/// A request with a body is seen twice (``admit(_:)`` on its headers, ``handle(_:admitted:)``
/// once the body is in); one without a body once (``respond(to:)``), so what admission looks up
/// (the token's user) can be looked up together with the answer.
public protocol HTTPHandling: AnyObject, Sendable {
  /// Looks at a request with a body whose headers have arrived, before its body is read (its
  /// ``HTTPRequest/body`` is empty). A refusal answers it now (its body is never read); an
  /// admission reads the body and calls ``handle(_:admitted:)`` with the number it carries.
  func admit(_ request: HTTPRequest) -> HTTPAdmission
  /// Answers a complete request, with the number its admission gave.
  func handle(_ request: HTTPRequest, admitted tag: Int64) -> HTTPResponse
  /// Admits and answers a request without a body, in one step: the same answer as
  /// ``admit(_:)`` followed by ``handle(_:admitted:)``.
  func respond(to request: HTTPRequest) -> HTTPResponse
  /// Called once a response has been handed to libmicrohttpd (for the request log).
  func answered(_ request: HTTPRequest, with response: HTTPResponse)
}

/// What ``HTTPHandling/admit(_:)`` decides about a request whose headers have arrived.
public enum HTTPAdmission: Sendable {
  /// Read the body, then answer; `tag` is kept with the request until then (the user's id).
  case admitted(tag: Int64)
  /// Answer this now, without reading the body.
  case refused(HTTPResponse)
}

/// An HTTP/1.1 server on libmicrohttpd, loaded when the first listener starts
/// (`Sources/CLifelogHTTPD`): epoll, a pool of threads, TLS when given a certificate.
public final class HTTPListener {
  public struct Configuration: Sendable {
    public var host: String
    /// 0 picks a free port (see ``HTTPListener/port``).
    public var port: UInt16
    public var threads: Int
    /// Connections open at once.
    ///
    /// A quarter of them is kept for clients past their request head:
    /// connections still waiting for theirs take at most the rest, and when that share is full a
    /// newcomer closes the one that has waited longest, so a real client always gets in.
    public var connectionLimit: Int
    /// Connections one client address may hold open at once (0: no limit), so one client cannot
    /// take every connection (docs/deploy.md: behind a reverse proxy every client has its address).
    ///
    /// An IPv6 client is counted by its /64, which one host usually owns whole.
    public var connectionsPerAddress: Int
    /// Seconds a connection may stay idle (also one that sends its request slower than that).
    public var connectionTimeout: Int
    /// Seconds a request head (request line and headers) may take in all, counted from the
    /// connection opening or the previous answer: a head that trickles in is cut off here,
    /// however active it looks (0: no deadline).
    public var headTimeout: Int
    public var maxBodyBytes: Int
    /// PEM text of the certificate chain and of the private key, for HTTPS.
    public var tlsCertificate: String?
    public var tlsKey: String?

    public init(
      host: String = "127.0.0.1", port: UInt16 = 8787, threads: Int = 8,
      connectionLimit: Int = HTTPListener.defaultConnectionLimit,
      connectionsPerAddress: Int = HTTPListener.defaultConnectionsPerAddress,
      connectionTimeout: Int = 60, headTimeout: Int = HTTPListener.defaultHeadTimeout,
      maxBodyBytes: Int = HTTPListener.defaultMaxBodyBytes,
      tlsCertificate: String? = nil,
      tlsKey: String? = nil
    ) {
      self.host = host
      self.port = port
      self.threads = threads
      self.connectionLimit = connectionLimit
      self.connectionsPerAddress = connectionsPerAddress
      self.connectionTimeout = connectionTimeout
      self.headTimeout = headTimeout
      self.maxBodyBytes = maxBodyBytes
      self.tlsCertificate = tlsCertificate
      self.tlsKey = tlsKey
    }
  }

  /// The default of ``Configuration/maxBodyBytes`` (`lifelog serve --max-body`): 8 MiB, room for
  /// a snapshot of years of entries.
  public static let defaultMaxBodyBytes = 8 << 20

  /// The default of ``Configuration/connectionLimit`` (`lifelog serve --max-connections`).
  public static let defaultConnectionLimit = 1024

  /// The default of ``Configuration/headTimeout`` (`lifelog serve --head-timeout`): a client
  /// sends its request head in one go, well under a second even far away.
  public static let defaultHeadTimeout = 30

  /// The default of ``Configuration/connectionsPerAddress``: a few machines behind one NAT each
  /// keep a connection or two; 300 slow connections from one address are refused past it.
  public static let defaultConnectionsPerAddress = 64

  private var server: OpaquePointer?
  private let context: Unmanaged<HandlerBox>

  /// Starts listening.
  ///
  /// - Throws: ``ListenerError`` when libmicrohttpd cannot be loaded or the address cannot be used.
  public init(_ configuration: Configuration, handler: any HTTPHandling) throws(ListenerError) {
    context = Unmanaged.passRetained(HandlerBox(handler))
    var message = [CChar](repeating: 0, count: 512)
    let started: OpaquePointer? = configuration.host.withCString { host in
      withOptionalCString(configuration.tlsCertificate) { certificate in
        withOptionalCString(configuration.tlsKey) { key in
          var config = lh_config(
            host: host, port: configuration.port, threads: UInt32(configuration.threads),
            connection_limit: UInt32(clamping: configuration.connectionLimit),
            per_address_limit: UInt32(clamping: configuration.connectionsPerAddress),
            connection_timeout: UInt32(configuration.connectionTimeout),
            head_timeout: UInt32(clamping: configuration.headTimeout),
            max_body: configuration.maxBodyBytes, tls_cert_pem: certificate, tls_key_pem: key)
          return lh_start(&config, handleRequest, context.toOpaque(), &message, message.count)
        }
      }
    }
    guard let started else {
      context.release()
      let text = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ListenerError(message: text)
    }
    server = started
  }

  deinit { stop() }

  /// The port listened on (the one picked when the configuration asked for 0).
  public var port: UInt16 {
    guard let server else { return 0 }
    return lh_port(server)
  }

  /// Requests begun and not yet answered and sent.
  public var activeRequests: Int {
    guard let server else { return 0 }
    return Int(lh_active_requests(server))
  }

  /// Stops accepting connections; requests already begun go on.
  public func quiesce() {
    if let server { lh_quiesce(server) }
  }

  /// Closes every connection and stops the threads.
  public func stop() {
    guard let server else { return }
    lh_stop(server)
    self.server = nil
    context.release()
  }
}

/// Why a listener could not start.
public struct ListenerError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public var description: String { message }
}

/// The handler, as the context pointer the C layer passes back.
private final class HandlerBox {
  let handler: any HTTPHandling
  init(_ handler: any HTTPHandling) { self.handler = handler }
}

private func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
  guard let text else { return body(nil) }
  return text.withCString { body($0) }
}

/// The C callback: one call per phase of each request (see lifelog_httpd.h).
private func handleRequest(context: UnsafeMutableRawPointer?, handle: OpaquePointer?, phase: Int32)
{
  guard let context, let handle else { return }
  let handler = Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue().handler
  let request = HTTPRequest(reading: handle, withBody: phase == Int32(LH_PHASE_COMPLETE))
  let response: HTTPResponse
  if phase == Int32(LH_PHASE_WHOLE) {
    response = handler.respond(to: request)
  } else if phase == Int32(LH_PHASE_COMPLETE) {
    response = handler.handle(request, admitted: lh_tag(handle))
  } else {
    switch handler.admit(request) {
    case .admitted(let tag):
      lh_set_tag(handle, tag)
      return
    case .refused(let refusal):
      response = refusal
    }
  }
  let headers = response.headerText
  _ = response.body.withUnsafeBufferPointer { body in
    lh_respond(handle, UInt32(response.status), headers, body.baseAddress, body.count)
  }
  handler.answered(request, with: response)
}

extension HTTPRequest {
  /// Copies what libmicrohttpd holds of a request: the body only once it is complete.
  fileprivate init(reading handle: OpaquePointer, withBody: Bool) {
    var body: [UInt8] = []
    var length = 0
    var clientKey = [UInt8](repeating: 0, count: 16)
    lh_request_client_key(handle, &clientKey)
    if withBody, let bytes = lh_body(handle, &length), length > 0 {
      body = Array(UnsafeBufferPointer(start: bytes, count: length))
    }
    self.init(
      method: String(cString: lh_method(handle)), path: String(cString: lh_path(handle)),
      headers: ValueList.read(lh_headers, handle).map { ($0.name, $0.value ?? "") },
      queryArguments: ValueList.read(lh_query_arguments, handle), body: body,
      bodyTooLarge: lh_body_too_large(handle) != 0,
      activeRequests: Int(lh_request_active(handle)), startedNanoseconds: lh_started_ns(handle),
      clientKey: clientKey)
  }
}

/// The names and values one of lh_headers and lh_query_arguments visits, collected.
private final class ValueList {
  var values: [(name: String, value: String?)] = []

  static func read(
    _ each: (OpaquePointer?, lh_visitor?, UnsafeMutableRawPointer?) -> Void, _ handle: OpaquePointer
  ) -> [(name: String, value: String?)] {
    let list = ValueList()
    withExtendedLifetime(list) {
      each(handle, collectValue, Unmanaged.passUnretained(list).toOpaque())
    }
    return list.values
  }
}

private func collectValue(
  context: UnsafeMutableRawPointer?, name: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
) {
  guard let context, let name else { return }
  let list = Unmanaged<ValueList>.fromOpaque(context).takeUnretainedValue()
  list.values.append((String(cString: name), value.map { String(cString: $0) }))
}

extension HTTPListener {
  /// What `--max-connections-per-address` counts `address` (numeric text) as: an IPv4 address
  /// whole, an IPv6 one by its /64 (`lh_client_key`); nil for text that is not an address.
  static func countedAs(_ address: String) -> [UInt8]? {
    var key = [UInt8](repeating: 0, count: 16)
    var v4 = sockaddr_in()
    var v6 = sockaddr_in6()
    if inet_pton(AF_INET, address, &v4.sin_addr) == 1 {
      v4.sin_family = sa_family_t(AF_INET)
      withUnsafePointer(to: &v4) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { lh_client_key($0, &key) }
      }
    } else if inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 {
      v6.sin6_family = sa_family_t(AF_INET6)
      withUnsafePointer(to: &v6) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { lh_client_key($0, &key) }
      }
    } else {
      return nil
    }
    return key
  }
}
