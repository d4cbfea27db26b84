import Foundation
import LifelogTestSupport
import Testing

/// Attacks from the local machine through the real binary: a folder name that would add a
/// command to a timer, a link planted where `--output` writes its temporary file, a child that
/// would read the caller's secrets, an import record that would never end.
@Suite struct HostileLocalInputTests {
  let folder = TemporaryDirectory()
  let now = "2026-12-02T16:00:00+01:00"

  /// Runs `script` with `/bin/sh -c`, the binary in `$LIFELOG` and a minimal environment plus
  /// `environment`, so the script can `cd`, limit memory or learn its pid before `exec`.
  func shell(_ script: String, _ environment: [String: String] = [:]) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.environment = [
      "PATH": "/usr/bin:/bin", "HOME": folder.path, "TZ": "Europe/Warsaw", "LIFELOG_NOW": now,
      "LIFELOG": LifelogProcess.binaryPath,
    ].merging(environment) { $1 }
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errors = AsyncData(stderr.fileHandleForReading)
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
      exitCode: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: String(decoding: errors.wait(), as: UTF8.self))
  }

  /// A `bin` folder holding `systemctl` (and `notify-send` when asked): scripts that append their
  /// arguments and environment to `calls.log`.
  func fakeTools(_ names: [String]) throws -> String {
    let bin = folder.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    for name in names {
      try ExecutableScript.create(
        "#!/bin/sh\necho \"\(name) $*\" >> '\(folder.file("calls.log"))'\n"
          + "env >> '\(folder.file("calls.log"))'\nexit 0\n",
        at: bin + "/" + name)
    }
    return bin
  }

  // MARK: - timer install

  /// A current folder whose name ends the quoted word of `ExecStart=` (and adds a second
  /// command), or holds a line break (two crontab lines), a carriage return or a CRLF (unit
  /// lines): the relative `--db` is made absolute and refused in that final form, exit 65, and
  /// nothing is written or printed to install, with or without a systemd session.
  @Test(arguments: [
    "d\" ; /bin/sh \"-c\" \"id>/tmp/PWNED\" \"x", "line\nbreak", "carriage\rreturn", "crlf\r\nend",
    "tab\there",
  ])
  func timerInstallRefusesAFolderTheUnitQuotingCannotCarry(_ name: String) throws {
    let bin = try fakeTools(["systemctl"])
    let hostile = folder.file("work/" + name)
    try FileManager.default.createDirectory(atPath: hostile, withIntermediateDirectories: true)
    for path in [bin, "/usr/bin:/bin"] {
      let result = try shell(
        "cd \"$DIR\" && exec \"$LIFELOG\" --db x.db timer install remind",
        ["DIR": hostile, "PATH": path, "XDG_CONFIG_HOME": folder.file("config")])
      #expect(result.exitCode == 65, "\(result)")
      #expect(result.stderr.hasPrefix("Error: The log's path '"), "\(result)")
      #expect(result.stderr.contains("cannot carry safely"), "\(result)")
      if name.hasPrefix("tab") { #expect(result.stderr.contains("(U+0009)"), "\(result)") }
      #expect(result.stdout.isEmpty, "\(result)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("config")))
    #expect(!FileManager.default.fileExists(atPath: folder.file("calls.log")))
  }

  /// `timer install remind` where `notify-send` is not on PATH installs the timer and says how
  /// to get notifications (the package, or `--exec`); with it on PATH, no note.
  @Test func timerInstallRemindSaysWhenNotifySendIsMissing() throws {
    let bin = try fakeTools(["systemctl"])
    let environment = [
      "PATH": bin, "XDG_CONFIG_HOME": folder.file("config"), "LIFELOG_DB": folder.file("l.db"),
    ]
    let missing = try shell("exec \"$LIFELOG\" timer install remind", environment)
    #expect(missing.exitCode == 0, "\(missing)")
    #expect(missing.stdout.hasPrefix("Installed lifelog-remind.timer"), "\(missing)")
    #expect(
      missing.stderr.hasPrefix("Note: notify-send is not on PATH")
        && missing.stderr.contains("libnotify-bin") && missing.stderr.contains("--exec"),
      "\(missing)")
    _ = try fakeTools(["notify-send"])
    let present = try shell("exec \"$LIFELOG\" timer install remind", environment)
    #expect(present.exitCode == 0 && present.stderr.isEmpty, "\(present)")
  }

  // MARK: - Child environment

  /// `remind --exec` and `--notify`, and the `systemctl` of `timer install`, see none of the
  /// caller's secrets: no `LIFELOG_` variable but `LIFELOG_DB` (and the `LIFELOG_MESSAGE` given
  /// to `--exec`), no `*_PASSWORD`, `*_TOKEN`, `*_PASSPHRASE`, `*_SECRET`, `*_KEY`.
  @Test func childProcessesGetNoSecrets() throws {
    let bin = try fakeTools(["systemctl", "notify-send"])
    let secrets = [
      "LIFELOG_PASSPHRASE": "pass-phrase-1", "LIFELOG_DAV_PASSWORD": "dav-password-2",
      "LIFELOG_SERVER_TOKEN": "server-token-3", "GITHUB_TOKEN": "github-token-4",
      "AWS_SECRET_ACCESS_KEY": "aws-key-5", "Mail_Password": "mail-password-6",
      "APP_SECRET": "app-secret-7",
    ]
    let environment = secrets.merging([
      "PATH": bin + ":/usr/bin:/bin", "LIFELOG_DB": folder.file("l.db"), "KEEP_ME": "kept",
      "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent", "ENV_FILE": folder.file("exec.env"),
      "XDG_CONFIG_HOME": folder.file("config"),
    ]) { $1 }
    let added = try shell("exec \"$LIFELOG\" add lunch --at 12:00", environment)
    #expect(added.exitCode == 0, "\(added)")
    let reminded = try shell(
      "exec \"$LIFELOG\" remind --notify --exec 'env > \"$ENV_FILE\"'", environment)
    #expect(reminded.exitCode == 0 && reminded.stdout.hasPrefix("A meal was due"), "\(reminded)")
    let installed = try shell("exec \"$LIFELOG\" timer install sync", environment)
    #expect(installed.exitCode == 0, "\(installed)")
    let exec = try String(contentsOfFile: folder.file("exec.env"), encoding: .utf8)
    let tools = try String(contentsOfFile: folder.file("calls.log"), encoding: .utf8)
    #expect(tools.contains("notify-send --app-name=lifelog") && tools.contains("systemctl --user"))
    for seen in [exec, tools] {
      #expect(seen.contains("KEEP_ME=kept\n") && seen.contains("LIFELOG_DB="), "\(seen)")
      for (name, value) in secrets {
        #expect(!seen.contains(value), "\(name) reached a child: \(seen)")
      }
    }
    #expect(exec.contains("LIFELOG_MESSAGE=A meal was due"), "\(exec)")
  }

  // MARK: - --output

  /// A link planted at the temporary name `export --output` once used (`.<name>.<pid>.tmp`, the
  /// pid known to the shell that `exec`s it): the export writes its own file, and the link's
  /// target is neither overwritten nor chmodded.
  @Test func exportOutputNeverFollowsAPlantedLink() throws {
    let victim = folder.file("victim.txt")
    try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
    chmod(victim, 0o644)
    let environment = ["LIFELOG_DB": folder.file("l.db"), "OUT": folder.path]
    #expect(try shell("exec \"$LIFELOG\" add lunch --at 12:00", environment).exitCode == 0)
    let result = try shell(
      """
      cd "$OUT" && ln -s victim.txt ".export.csv.$$.tmp" && ln -s victim.txt ".export.csv.tmp" &&
      exec "$LIFELOG" export --output export.csv
      """, environment)
    #expect(result.exitCode == 0, "\(result)")
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    let victimMode = try FileManager.default.attributesOfItem(atPath: victim)[.posixPermissions]
    #expect(victimMode as? Int == 0o644)
    let written = try String(contentsOfFile: folder.file("export.csv"), encoding: .utf8)
    #expect(written.hasPrefix("id,at,activity"), "\(written)")
    let exported = try FileManager.default.attributesOfItem(atPath: folder.file("export.csv"))
    #expect(exported[.type] as? FileAttributeType == .typeRegular)
    #expect(exported[.posixPermissions] as? Int == 0o600)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!left.contains { $0.contains(".tmp-") }, "no temporary left: \(left)")
  }

  // MARK: - Lock files

  /// A link planted at the sync lock's or the remind lock's name, beside the log: `sync` and
  /// `remind` refuse it and create nothing where it points (a missing file) nor touch what is
  /// there (an existing one keeps its bytes and mode).
  @Test(arguments: ["sync", "remind"])
  func aLockFileNeverFollowsAPlantedLink(_ command: String) throws {
    let environment = ["LIFELOG_DB": folder.file("l.db"), "OUT": folder.path]
    #expect(try shell("exec \"$LIFELOG\" add lunch --at 12:00", environment).exitCode == 0)
    #expect(
      try shell("exec \"$LIFELOG\" remote add usb \"$OUT/usb\"", environment).exitCode == 0)
    let lock = folder.file("l.db.\(command)-lock")
    try FileManager.default.createSymbolicLink(
      atPath: lock, withDestinationPath: folder.file("created-elsewhere"))
    let result = try shell("exec \"$LIFELOG\" \(command)", environment)
    #expect(result.exitCode != 0, "\(result)")
    #expect(result.stderr.contains("symbolic link"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("created-elsewhere")))

    let victim = folder.file("victim.txt")
    try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
    chmod(victim, 0o644)
    try FileManager.default.removeItem(atPath: lock)
    try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: victim)
    #expect(try shell("exec \"$LIFELOG\" \(command)", environment).exitCode != 0)
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    let mode = try FileManager.default.attributesOfItem(atPath: victim)[.posixPermissions]
    #expect(mode as? Int == 0o644)
  }

  // MARK: - Record cap

  /// A 64 MB CSV record (a quote never closed) and a 64 MB JSON line: the import stops at 1 MiB
  /// with the line and the limit, exit 65, stores nothing, and runs within a 96 MiB address
  /// space (`ulimit -v`) where holding the record would not fit.
  @Test(arguments: [
    ("big.csv", "at,activity,note\n2026-12-01 08:00,breakfast,\"", "the CSV record"),
    ("big.jsonl", "{\"at\":\"2026-12-01 08:00\",\"activity\":\"x\",\"note\":\"", "the JSON line"),
  ])
  func anImportRecordPastOneMebibyteIsRefusedInBoundedMemory(
    _ name: String, _ start: String, _ what: String
  ) throws {
    let path = folder.file(name)
    let handle = try #require(FileHandle(forWritingAtPath: path) ?? createFile(path))
    try handle.write(contentsOf: Data(start.utf8))
    let block = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
    for _ in 0..<64 { try handle.write(contentsOf: block) }
    try handle.close()
    let environment = ["LIFELOG_DB": folder.file("l.db"), "FILE": path]
    let result = try shell(
      "ulimit -v 98304 || exit 99; exec \"$LIFELOG\" import \"$FILE\"", environment)
    let line = name.hasSuffix(".csv") ? 2 : 1
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stderr
        == "Error: line \(line): \(what) is longer than 1048576 bytes (1 MiB), the most lifelog "
        + "reads as one record; look for a quote that is never closed, or split the record\n",
      "\(result)")
    let listed = try shell("exec \"$LIFELOG\" list --format json", environment)
    #expect(listed.stdout == "[]\n" || listed.stdout.isEmpty, "\(listed)")
  }

  private func createFile(_ path: String) -> FileHandle? {
    FileManager.default.createFile(atPath: path, contents: nil)
    return FileHandle(forWritingAtPath: path)
  }
}
