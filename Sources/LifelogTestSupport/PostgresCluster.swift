import Foundation
import LifelogCore

/// A throwaway PostgreSQL cluster for the tests of the PostgreSQL store.
///
/// It is started on first use (scripts/postgres-cluster.sh: a temporary folder, 127.0.0.1 and a free port, fsync off), one
/// per test process, and stopped once the process has exited. Each test takes a database of its
/// own.
///
/// `LIFELOG_TEST_STORE=postgres` makes ``ServerProcess`` serve from it, which is how `make test`
/// runs the HTTP tests a second time on PostgreSQL.
public final class PostgresCluster: @unchecked Sendable {
  public let folder: String
  public let port: Int

  /// Whether the HTTP tests should run on PostgreSQL (`LIFELOG_TEST_STORE=postgres`).
  public static var selected: Bool {
    ProcessInfo.processInfo.environment["LIFELOG_TEST_STORE"] == "postgres"
  }

  /// Whether PostgreSQL's server programs are installed (Debian's `postgresql` package).
  public static var isInstalled: Bool {
    let versions =
      (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
    return versions.contains {
      FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
    }
  }

  /// The cluster of this test process, started on first use.
  public static func shared() throws -> PostgresCluster { try started.get() }

  private static let started = Result { try PostgresCluster() }

  private init() throws {
    // The script stops the cluster once this process is gone.
    let result = try PostgresCluster.script(["start", String(getpid())])
    guard result.succeeded else {
      throw ServerProcessError(message: "cannot start PostgreSQL: \(result)")
    }
    // "FOLDER PORT", on the last line.
    let words = (result.stdout.split(separator: "\n").last ?? "").split(separator: " ")
    guard words.count == 2, let port = Int(words[1]) else {
      throw ServerProcessError(
        message: "cannot start PostgreSQL: no 'FOLDER PORT' line from \(result)")
    }
    folder = String(words[0])
    self.port = port
  }

  /// A database named `name` (created when missing), as a `--store` URL.
  ///
  /// Tried twice: creating a database that exists is a no-op, so a second try also covers a
  /// first one whose outcome was lost (system() without its child's status).
  public func database(_ name: String) throws -> String {
    let first = try PostgresCluster.script(["createdb", folder, name])
    if first.succeeded { return url(name) }
    let second = try PostgresCluster.script(["createdb", folder, name])
    guard second.succeeded else {
      throw ServerProcessError(
        message: "cannot create database \(name): \(first); again: \(second)")
    }
    return url(name)
  }

  /// A new database with a name of its own.
  public func newDatabase() throws -> String {
    try database("t_" + UUIDText.random().replacingOccurrences(of: "-", with: "").prefix(24))
  }

  /// The database of a test's data folder: the same folder, the same database.
  public func database(forFolder path: String) throws -> String {
    try database("t_" + SHA256.hexDigest(Array(path.utf8)).prefix(24))
  }

  /// Runs `sql` as the superuser, in database `postgres`.
  public func sql(_ sql: String) throws {
    let result = try PostgresCluster.script(["sql", folder, sql])
    guard result.succeeded else {
      throw ServerProcessError(message: "psql failed: \(result)")
    }
  }

  public func url(_ database: String) -> String {
    "postgres://postgres@127.0.0.1:\(port)/\(database)"
  }

  /// Runs the script with `system` (a `Process` waited for inside the static initializer of
  /// ``shared()`` never saw its child exit), its standard output and error in temporary files.
  private static func script(_ arguments: [String]) throws -> ScriptRun {
    let base = NSTemporaryDirectory() + "/lifelog-postgres-\(UUIDText.random())"
    let outputPath = base + ".out"
    let errorPath = base + ".err"
    defer {
      unlink(outputPath)
      unlink(errorPath)
    }
    func quoted(_ text: String) -> String {
      "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
    let command = ([quoted("/bin/sh"), quoted(scriptPath)] + arguments.map(quoted))
      .joined(separator: " ")
    let status = system(command + " >" + quoted(outputPath) + " 2>" + quoted(errorPath))
    let failure = errno
    return ScriptRun(
      command: command, status: status, systemErrno: failure,
      stdout: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
  }

  /// scripts/postgres-cluster.sh of this checkout.
  static var scriptPath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/postgres-cluster.sh").path
  }
}

/// One run of scripts/postgres-cluster.sh: what ran, how it ended, and everything it printed.
///
/// Its description is what a helper's error message carries, so that a failure says why even
/// when the script printed nothing (system() failing, a signal, an exit status alone).
public struct ScriptRun: Sendable, CustomStringConvertible {
  public let command: String
  /// What `system` returned: -1 when it could not run the shell, else a wait status.
  public let status: Int32
  /// `errno` just after `system`, which says why when `status` is -1.
  public let systemErrno: Int32
  public let stdout: String
  public let stderr: String

  public init(command: String, status: Int32, systemErrno: Int32, stdout: String, stderr: String) {
    self.command = command
    self.status = status
    self.systemErrno = systemErrno
    self.stdout = stdout
    self.stderr = stderr
  }

  public var succeeded: Bool { status == 0 }

  /// "exit status 1", "killed by signal 9" or "system() failed: …".
  public var outcome: String {
    if status == -1 { return "system() failed: \(String(cString: strerror(systemErrno)))" }
    let signal = status & 0x7F
    if signal != 0 { return "killed by signal \(signal)" }
    return "exit status \((status >> 8) & 0xFF)"
  }

  public var description: String {
    func shown(_ text: String) -> String {
      let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
      return trimmed.isEmpty ? "(empty)" : trimmed
    }
    return "\(command): \(outcome); stdout: \(shown(stdout)); stderr: \(shown(stderr))"
  }
}
