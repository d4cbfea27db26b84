import Foundation
@preconcurrency import Glibc

/// A real WebDAV server on 127.0.0.1 for tests, with basic authentication.
///
/// Apache httpd with mod_dav (Debian `apache2`, run single-process with `-X` and a config of its
/// own) or `rclone serve webdav` (Debian `rclone`). Started in `init`; ``kill()`` and ``start()``
/// stop and start it again on the same port and files, as a server that crashed and came back.
public final class DAVServer: @unchecked Sendable {
  public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
    case apache, rclone
    public var description: String { rawValue }
  }

  public let kind: Kind
  public let user = "alice"
  public let password: String
  /// The folder the server serves; its files are what the server holds.
  public let files: String
  public private(set) var port = 0
  private let folder: String
  private var process: Process?
  /// Apache's `LimitRequestBody`, when set: a PUT larger than this is answered 413.
  private let bodyLimit: Int?
  /// Apache's certificate and key, when it serves HTTPS.
  private let tls: (certificate: String, key: String)?

  /// `dav://127.0.0.1:port`, or `davs://` over HTTPS.
  public var baseURL: String { (tls == nil ? "dav" : "davs") + "://127.0.0.1:\(port)" }

  /// Whether the server's program is installed (`make test-deps`).
  public static func isAvailable(_ kind: Kind) -> Bool {
    switch kind {
    case .apache:
      FileManager.default.isExecutableFile(atPath: "/usr/sbin/apache2")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/htpasswd")
    case .rclone: FileManager.default.isExecutableFile(atPath: "/usr/bin/rclone")
    }
  }

  /// - Parameter tls: a certificate and its key for HTTPS (Apache only).
  public init(
    _ kind: Kind, password: String = "correct horse", bodyLimit: Int? = nil,
    tls: (certificate: String, key: String)? = nil
  ) throws {
    self.kind = kind
    self.password = password
    self.bodyLimit = bodyLimit
    self.tls = tls
    // A folder of its own, readable by the user Apache switches to when the tests run as root.
    var template = Array("/tmp/lifelog-dav.XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer {
      $0.baseAddress.flatMap { mkdtemp($0) } != nil
    }
    guard created else { throw ServerProcessError(message: "mkdtemp failed") }
    folder = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    chmod(folder, 0o755)
    files = folder + "/files"
    try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: folder + "/lock", withIntermediateDirectories: true)
    if kind == .apache {
      let made = try DAVServer.run(
        "/usr/bin/htpasswd", ["-cbB", folder + "/htpasswd", user, password])
      guard made == 0 else { throw ServerProcessError(message: "htpasswd failed") }
      if geteuid() == 0 {
        for path in [files, folder + "/lock", folder + "/htpasswd"] {
          _ = try DAVServer.run("/bin/chown", ["-R", "nobody:nogroup", path])
        }
      }
    }
    // The port was free a moment ago; another test may take it before the server binds it.
    for attempt in 1...3 {
      port = try DAVServer.freePort()
      do {
        try start()
        return
      } catch  where attempt < 3 {
        continue
      }
    }
  }

  deinit {
    kill()
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Starts the server (again) on its port and waits until it answers.
  public func start() throws {
    let process = Process()
    process.standardInput = FileHandle.nullDevice
    let log = folder + "/server.log"
    if !FileManager.default.fileExists(atPath: log) {
      _ = FileManager.default.createFile(atPath: log, contents: nil)
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    handle.seekToEndOfFile()
    process.standardOutput = handle
    process.standardError = handle
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder]
    switch kind {
    case .apache:
      try apacheConfig().write(toFile: folder + "/httpd.conf", atomically: true, encoding: .utf8)
      process.executableURL = URL(fileURLWithPath: "/usr/sbin/apache2")
      process.arguments = ["-X", "-f", folder + "/httpd.conf", "-DFOREGROUND"]
    case .rclone:
      process.executableURL = URL(fileURLWithPath: "/usr/bin/rclone")
      process.arguments = [
        "serve", "webdav", files, "--addr", "127.0.0.1:\(port)", "--user", user, "--pass",
        password, "--config", folder + "/rclone.conf",
        // Tests change the files behind the server's back (a folder emptied or moved by another
        // client): no cached listing may hide that.
        "--dir-cache-time", "0s",
      ]
    }
    try process.run()
    self.process = process
    // Until it answers: it binds within a second; 30 s is only a bound for a broken install.
    for _ in 0..<3000 {
      if DAVServer.answers(port: port) { return }
      if !process.isRunning { break }
      usleep(10_000)
    }
    kill()
    throw ServerProcessError(message: "the \(kind) WebDAV server did not start: \(self.log)")
  }

  /// Kills the server at once (SIGKILL), as a crash would.
  public func kill() {
    guard let process else { return }
    if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    self.process = nil
  }

  /// What the server logged.
  public var log: String {
    (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
  }

  /// The requests Apache served so far, one `METHOD path status` line each (empty for rclone).
  public var requests: [String] {
    ((try? String(contentsOfFile: folder + "/access.log", encoding: .utf8)) ?? "")
      .split(separator: "\n").map(String.init)
  }

  /// Sets the modification time of every folder the server holds to an hour ago, as if the last
  /// change were long past: Apache's ETags of them are then settled (``DAVRemote`` trusts a
  /// folder's ETag only two seconds after its last change), so a test need not wait.
  public func ageFolders() throws {
    let enumerator = FileManager.default.enumerator(atPath: files)
    var folders = [files]
    while let path = enumerator?.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: files + "/" + path, isDirectory: &isFolder),
        isFolder.boolValue
      {
        folders.append(files + "/" + path)
      }
    }
    let past = Date().addingTimeInterval(-3600)
    for folder in folders {
      try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: folder)
    }
  }

  /// Makes the collection `path` (and those above it) in the served folder, as the account's
  /// owner would before adding a remote there.
  public func makeFolder(_ path: String) throws {
    try FileManager.default.createDirectory(
      atPath: files + "/" + path, withIntermediateDirectories: true)
    if kind == .apache, geteuid() == 0 {
      _ = try DAVServer.run("/bin/chown", ["-R", "nobody:nogroup", files])
    }
  }

  /// Every regular file the server holds, by path below ``files``.
  public func allFiles() -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: files)
    var found: [String] = []
    while let path = enumerator?.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: files + "/" + path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        found.append(path)
      }
    }
    return found.sorted()
  }

  private func apacheConfig() -> String {
    let modules = "/usr/lib/apache2/modules"
    var config = """
      ServerRoot \(folder)
      PidFile \(folder)/httpd.pid
      Listen 127.0.0.1:\(port)
      ServerName 127.0.0.1
      LoadModule mpm_event_module \(modules)/mod_mpm_event.so
      LoadModule authn_core_module \(modules)/mod_authn_core.so
      LoadModule authn_file_module \(modules)/mod_authn_file.so
      LoadModule authz_core_module \(modules)/mod_authz_core.so
      LoadModule authz_user_module \(modules)/mod_authz_user.so
      LoadModule auth_basic_module \(modules)/mod_auth_basic.so
      LoadModule dav_module \(modules)/mod_dav.so
      LoadModule dav_fs_module \(modules)/mod_dav_fs.so
      ErrorLog \(folder)/server.log
      LogFormat "%m %U %>s" lifelog
      CustomLog \(folder)/access.log lifelog
      DavLockDB \(folder)/lock/DavLock
      DocumentRoot \(files)
      <Directory \(files)>
        Dav On
        AuthType Basic
        AuthName "lifelog test"
        AuthUserFile \(folder)/htpasswd
        Require valid-user

      """
    if let bodyLimit { config += "  LimitRequestBody \(bodyLimit)\n" }
    config += "</Directory>\n"
    if let tls {
      config += """
        LoadModule ssl_module \(modules)/mod_ssl.so
        SSLEngine on
        SSLCertificateFile \(tls.certificate)
        SSLCertificateKeyFile \(tls.key)

        """
    }
    if geteuid() == 0 { config += "User nobody\nGroup nogroup\n" }
    return config
  }

  private static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// A port nothing listens on now.
  private static func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw ServerProcessError(message: "socket failed") }
    defer { close(socket) }
    var address = LoopbackServer.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else { throw ServerProcessError(message: "bind failed") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts connections on the port.
  private static func answers(port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = LoopbackServer.loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
