import CLifelogHTTPD

/// Answers the requests an ``HTTPListener`` receives, on libmicrohttpd's threads.
public protocol HTTPHandling: AnyObject, Sendable {
  /// Looks at a request whose headers have arrived, before its body is read. Returning a response
  /// answers it now (its body is read and thrown away); nil reads the body and calls ``handle(_:)``.
  func admit(_ request: HTTPRequest) -> HTTPResponse?
  /// Answers a complete request.
  func handle(_ request: HTTPRequest) -> HTTPResponse
  /// Called once a response has been handed to libmicrohttpd (for the request log).
  func answered(_ request: HTTPRequest, with response: HTTPResponse)
}

/// An HTTP/1.1 server on libmicrohttpd, loaded when the first listener starts
/// (`Sources/CLifelogHTTPD`): epoll, a pool of threads, TLS when given a certificate.
public final class HTTPListener {
  public struct Configuration: Sendable {
    public var host: String
    /// 0 picks a free port (see ``HTTPListener/port``).
    public var port: UInt16
    public var threads: Int
    public var connectionLimit: Int
    /// Connections one client address may hold open at once (0: no limit), so one client cannot
    /// take every connection (docs/deploy.md: behind a reverse proxy every client has its address).
    public var connectionsPerAddress: Int
    /// Seconds a connection may stay idle (also one that sends its request slower than that).
    public var connectionTimeout: Int
    public var maxBodyBytes: Int
    /// PEM text of the certificate chain and of the private key, for HTTPS.
    public var tlsCertificate: String?
    public var tlsKey: String?

    public init(
      host: String = "127.0.0.1", port: UInt16 = 8787, threads: Int = 8,
      connectionLimit: Int = 1024,
      connectionsPerAddress: Int = HTTPListener.defaultConnectionsPerAddress,
      connectionTimeout: Int = 60, maxBodyBytes: Int = 8 << 20, tlsCertificate: String? = nil,
      tlsKey: String? = nil
    ) {
      self.host = host
      self.port = port
      self.threads = threads
      self.connectionLimit = connectionLimit
      self.connectionsPerAddress = connectionsPerAddress
      self.connectionTimeout = connectionTimeout
      self.maxBodyBytes = maxBodyBytes
      self.tlsCertificate = tlsCertificate
      self.tlsKey = tlsKey
    }
  }

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
  let request = HTTPRequest(handle: handle)
  let response: HTTPResponse
  if phase == Int32(LH_PHASE_HEADERS) {
    guard let early = handler.admit(request) else { return }
    response = early
  } else {
    response = handler.handle(request)
  }
  let headers = response.headerText
  _ = response.body.withUnsafeBufferPointer { body in
    lh_respond(handle, UInt32(response.status), headers, body.baseAddress, body.count)
  }
  handler.answered(request, with: response)
}
