import Foundation
@preconcurrency import Glibc
import LifelogLoopback

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
      let made = try ToolProcess.run(
        "/usr/bin/htpasswd", ["-cbB", folder + "/htpasswd", user, password])
      guard made == 0 else { throw ServerProcessError(message: "htpasswd failed") }
      if geteuid() == 0 {
        for path in [files, folder + "/lock", folder + "/htpasswd"] {
          _ = try ToolProcess.run("/bin/chown", ["-R", "nobody:nogroup", path])
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
      if Loopback.answers(port: port) { return }
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
      _ = try ToolProcess.run("/bin/chown", ["-R", "nobody:nogroup", files])
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
    ApacheDAVConfig(
      folder: folder, files: files, port: port, errorLog: folder + "/server.log",
      bodyLimit: bodyLimit, tls: tls
    ).text
  }

  /// A port nothing listens on now.
  private static func freePort() throws -> Int {
    guard let port = Loopback.freePort() else {
      throw ServerProcessError(message: "no free port on 127.0.0.1")
    }
    return port
  }
}
