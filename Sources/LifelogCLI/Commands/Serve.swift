@preconcurrency import Glibc
import LifelogCore
import LifelogServer

extension LifelogCommand {
  /// `lifelog serve`: the HTTP sync server, until SIGINT or SIGTERM.
  struct Serve: Command {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: "Run the HTTP sync server.",
      discussion: """
        Serves the sync protocol over HTTP (docs/http-api.md) to the users added with
        'lifelog serve user add', keeping their batches in DIR/server.db, or with --store in
        PostgreSQL, where several servers can share them (docs/deploy.md). Prints where it listens,
        then logs one line per request on standard error. SIGINT or SIGTERM lets the requests in
        flight finish, then stops.
        """,
      options: [
        listen, ServeUserGroup.dataOption, ServeUserGroup.storeOption, tlsCert, tlsKey, maxBody,
        rateLimit, burst, maxConcurrent, maxConnections, maxConnectionsPerAddress, headTimeout,
        threads,
      ],
      examples: [
        "lifelog serve user add alice",
        "lifelog serve --listen 0.0.0.0:8787 --tls-cert cert.pem --tls-key key.pem",
        "lifelog serve --store postgres://lifelog@db.example:5432/lifelog",
      ],
      subcommands: [ServeUserGroup.self],
      usesDatabase: false)

    static let listen = OptionSpec(
      ["--listen"], value: "host:port", help: "Where to listen (port 0 picks a free one).",
      default: "127.0.0.1:8787")
    static let tlsCert = OptionSpec(
      ["--tls-cert"], value: "file", help: "A PEM certificate chain: serve HTTPS.")
    static let tlsKey = OptionSpec(
      ["--tls-key"], value: "file", help: "The PEM private key of --tls-cert.")
    static let maxBody = OptionSpec(
      ["--max-body"], value: "bytes", help: "The largest batch or snapshot accepted.",
      default: String(HTTPListener.defaultMaxBodyBytes))
    static let rateLimit = OptionSpec(
      ["--rate-limit"], value: "n", help: "Requests per second per token (0: no limit).",
      default: "100")
    static let burst = OptionSpec(
      ["--burst"], value: "n", help: "Requests a token may make at once.", default: "200")
    static let maxConcurrent = OptionSpec(
      ["--max-concurrent"], value: "n", help: "Requests handled at once; more get 503.",
      default: "256")
    static let maxConnections = OptionSpec(
      ["--max-connections"], value: "n",
      help: "Connections open at once; a quarter is kept for clients past their request head.",
      default: String(HTTPListener.defaultConnectionLimit))
    static let maxConnectionsPerAddress = OptionSpec(
      ["--max-connections-per-address"], value: "n",
      help: "Connections one client address (IPv6: one /64) may hold open (0: no limit).",
      default: String(HTTPListener.defaultConnectionsPerAddress))
    static let headTimeout = OptionSpec(
      ["--head-timeout"], value: "seconds",
      help: "Time a request's line and headers may take in all (0: no limit).",
      default: String(HTTPListener.defaultHeadTimeout))
    static let threads = OptionSpec(
      ["--threads"], value: "n", help: "Threads answering requests.",
      default: "2 per core, at least 4")

    let configuration: SyncServer.Configuration
    let scheme: String

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      var listener = HTTPListener.Configuration()
      (listener.host, listener.port) = try Serve.address(
        arguments.valueOrDefault(Self.listen) ?? "")
      listener.maxBodyBytes = try Serve.number(
        arguments, Self.maxBody, default: HTTPListener.defaultMaxBodyBytes,
        range: 1024...(1 << 30))
      let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
      listener.threads = try Serve.number(
        arguments, Self.threads, default: max(4, 2 * cores), range: 1...256)
      listener.connectionsPerAddress = try Serve.number(
        arguments, Self.maxConnectionsPerAddress,
        default: HTTPListener.defaultConnectionsPerAddress, range: 0...100_000)
      listener.connectionLimit = try Serve.number(
        arguments, Self.maxConnections, default: HTTPListener.defaultConnectionLimit,
        range: 4...100_000)
      listener.headTimeout = try Serve.number(
        arguments, Self.headTimeout, default: HTTPListener.defaultHeadTimeout, range: 0...3600)
      switch (arguments.value(Self.tlsCert), arguments.value(Self.tlsKey)) {
      case (nil, nil):
        scheme = "http"
      case (let certificate?, let key?):
        listener.tlsCertificate = try Serve.readText(certificate, what: "--tls-cert")
        listener.tlsKey = try Serve.readText(key, what: "--tls-key")
        scheme = "https"
      default:
        throw UsageError("Give both '--tls-cert' and '--tls-key', or neither")
      }
      configuration = SyncServer.Configuration(
        listener: listener, store: try ServeUserGroup.location(arguments, context: context),
        requestsPerSecond: Double(
          try Serve.number(arguments, Self.rateLimit, default: 100, range: 0...1_000_000)),
        burst: try Serve.number(arguments, Self.burst, default: 200, range: 1...1_000_000),
        maxConcurrentRequests: try Serve.number(
          arguments, Self.maxConcurrent, default: 256, range: 1...100_000))
    }

    func run(in context: Context) throws {
      let server = try SyncServer(configuration, log: Serve.writeLogLine)
      // Block the signals before libmicrohttpd starts its threads, so they inherit the mask and
      // only this thread takes them, in sigwait.
      var signals = sigset_t()
      sigemptyset(&signals)
      sigaddset(&signals, SIGINT)
      sigaddset(&signals, SIGTERM)
      pthread_sigmask(SIG_BLOCK, &signals, nil)
      defer { pthread_sigmask(SIG_UNBLOCK, &signals, nil) }
      let listener = try server.listen()
      let host =
        configuration.listener.host.contains(":")
        ? "[\(configuration.listener.host)]" : configuration.listener.host
      context.output.write(
        "lifelog serve: listening on \(scheme)://\(host):\(listener.port), \(Serve.describe(configuration.store))\n"
      )
      context.output.flush()
      if let warning = Serve.plainHTTPWarning(host: configuration.listener.host, scheme: scheme) {
        Serve.writeLogLine(warning)
      }
      var received: Int32 = 0
      sigwait(&signals, &received)
      let active = listener.activeRequests
      Serve.writeLogLine(
        "lifelog serve: \(received == SIGINT ? "SIGINT" : "SIGTERM"), finishing \(active) request(s)"
      )
      listener.quiesce()
      var waited = 0
      while listener.activeRequests > 0, waited < 10_000 {
        usleep(10_000)
        waited += 10
      }
      listener.stop()
      Serve.writeLogLine("lifelog serve: stopped")
    }

    /// Where the data is, for the first line: the folder, or the URL without its password.
    static func describe(_ store: ServerStoreLocation) -> String {
      switch store {
      case .folder(let folder): "data in \(folder)"
      case .postgres: "store \(store)"
      }
    }

    /// One line on standard error, in one `write` so lines of concurrent requests never interleave.
    @Sendable static func writeLogLine(_ line: String) {
      var bytes = Array(line.utf8)
      bytes.append(0x0A)
      _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// `host:port`, `[v6]:port` or `:port`.
    static func address(_ text: String) throws -> (String, UInt16) {
      var host: Substring
      var port: Substring
      if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
        host = text[text.index(after: text.startIndex)..<close]
        port = text[text.index(after: close)...].drop { $0 == ":" }
      } else if let colon = text.lastIndex(of: ":") {
        host = text[..<colon]
        port = text[text.index(after: colon)...]
      } else {
        throw InputError("'--listen \(text)' must be HOST:PORT, such as 127.0.0.1:8787")
      }
      if host.isEmpty { host = "0.0.0.0" }
      guard let number = UInt16(port) else {
        throw InputError("The port in '--listen \(text)' must be a number from 0 to 65535")
      }
      return (String(host), number)
    }

    static func number(
      _ arguments: ParsedArguments, _ option: OptionSpec, default value: Int,
      range: ClosedRange<Int>
    )
      throws -> Int
    {
      guard let text = arguments.value(option) else { return value }
      guard let number = Int(text), range.contains(number) else {
        throw InputError(
          "'\(option.key) \(text)' must be a whole number from \(range.lowerBound) to \(range.upperBound)"
        )
      }
      return number
    }

    static func readText(_ path: String, what: String) throws -> String {
      let bytes: [UInt8]
      do {
        bytes = try LocalFile.read(path)
      } catch {
        throw InputError("Cannot read \(what) '\(path)' (\(error.reason))")
      }
      guard !bytes.isEmpty else { throw InputError("\(what) '\(path)' is empty") }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}
