import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// A hostile or damaged folder remote, made on a real folder, met by the real `lifelog` binary:
/// links are never followed, only regular files are read, and only up to a size cap; what cannot
/// be read holds back its own device with a warning, and costs neither time nor memory.
@Suite struct HostileFolderTests {
  let folder = TemporaryDirectory(prefix: "lifelog-hostile-folder")
  var remote: String { folder.file("usb/lifelog") }

  /// The device id of a machine, from `lifelog status --format json`.
  func deviceID(_ machine: SyncMachine) throws -> String {
    let status = try #require(
      try SyncMachine.objects(inJSON: machine.expectSuccess("status", "--format", "json").stdout)
        .first)
    return try #require(status["device"] as? String)
  }

  /// A desktop and a phone that each pushed one batch (eggs, tea), and a laptop that joined.
  func threeMachines() throws -> (laptop: SyncMachine, desktop: String, phone: String) {
    let desktop = SyncMachine("desktop", in: folder)
    let phone = SyncMachine("phone", in: folder)
    let laptop = SyncMachine("laptop", in: folder)
    _ = try desktop.add("breakfast", "eggs", "--at", "2026-12-01 07:30")
    try desktop.expectSuccess("remote", "add", "usb", remote)
    try desktop.expectSuccess("sync")
    _ = try phone.add("snack", "tea", "--at", "2026-12-01 16:00")
    try phone.expectSuccess("remote", "add", "usb", remote)
    try phone.expectSuccess("sync")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    return (laptop, try deviceID(desktop), try deviceID(phone))
  }

  func notes(_ machine: SyncMachine) throws -> [String] {
    try machine.entries().values.compactMap { $0["note"] as? String }.sorted()
  }

  enum Junk: String, CaseIterable, Sendable {
    case fifo, folder, linkToDevZero, oversize

    /// Makes `path` this kind of junk; returns what the warning says about it.
    func make(at path: String) throws -> String {
      switch self {
      case .fifo:
        #expect(mkfifo(path, 0o644) == 0)
        return "'\(path)' is not a regular file (a FIFO, socket or device)"
      case .folder:
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return "'\(path)' is a folder, not a file"
      case .linkToDevZero:
        #expect(symlink("/dev/zero", path) == 0)
        return "'\(path)' is a symbolic link; lifelog never follows links inside a remote"
      case .oversize:
        // Sparse: 256 MiB and one byte of zeros, costing no disk.
        let descriptor = open(path, O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0 && ftruncate(descriptor, (256 << 20) + 1) == 0)
        close(descriptor)
        return "'\(path)' is larger than the 268435456 bytes lifelog reads from such a file"
      }
    }
  }

  @Test(arguments: Junk.allCases) func junkNamedLikeABatchHoldsBackOnlyItsDeviceWithAWarning(
    _ junk: Junk
  ) throws {
    let (laptop, desktop, _) = try threeMachines()
    let path = remote + "/devices/\(desktop)/0000000002.batch"
    let reason = try junk.make(at: path)

    let start = Date()
    let sync = try laptop.run("sync", "--timeout", "20")
    #expect(sync.exitCode == 0, "\(sync)")
    #expect(secondsSince(start) < 15, "took \(secondsSince(start)) s")
    #expect(sync.stdout.contains("pulled 2 batches"), "\(sync)")
    #expect(
      sync.stderr.contains(
        "Warning: skipped devices/\(desktop)/0000000002.batch: \(reason); it will be read again"),
      "\(sync)")
    #expect(try notes(laptop) == ["eggs", "tea"])
    let status = try laptop.expectSuccess("status")
    #expect(status.stdout.contains("    devices/\(desktop)/0000000002.batch: "), "\(status)")
  }

  @Test(arguments: [Junk.linkToDevZero, .fifo, .oversize])
  func aSnapshotThatIsJunkIsPassedOverWithAWarning(
    _ junk: Junk
  )
    throws
  {
    let (laptop, _, _) = try threeMachines()
    let path =
      remote + "/snapshots/9999999999999-\(UUID().uuidString.lowercased())-deadbeef.snapshot"
    let reason = try junk.make(at: path)
    let start = Date()
    let sync = try laptop.run("sync", "--timeout", "20")
    #expect(sync.exitCode == 0, "\(sync)")
    #expect(secondsSince(start) < 15, "took \(secondsSince(start)) s")
    #expect(sync.stderr.contains("Warning: skipped snapshots/"), "\(sync)")
    #expect(
      sync.stderr.contains(junk == .oversize ? "larger than the 1048576 bytes" : reason), "\(sync)")
    #expect(try notes(laptop) == ["eggs", "tea"])
  }

  @Test func aSymlinkedOwnDeviceFolderMakesPushAndCompactionRefuseAndItsTargetIsUntouched() throws {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("breakfast", "eggs", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    try laptop.expectSuccess("sync")
    let own = remote + "/devices/" + (try deviceID(laptop))
    // Someone moves the folder away and leaves a link to a folder of their choosing.
    let elsewhere = folder.file("elsewhere")
    #expect(rename(own, elsewhere) == 0)
    #expect(symlink(elsewhere, own) == 0)
    let before = try FileManager.default.contentsOfDirectory(atPath: elsewhere)
    #expect(before == ["0000000001.batch"])

    _ = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    for arguments in [["sync"], ["sync", "--compact"]] {
      let result = try LifelogProcess.run(arguments, environment: laptop.environment)
      #expect(result.exitCode == 69, "\(arguments): \(result)")
      #expect(
        result.stderr.contains(
          "'\(own)' is a symbolic link; lifelog never follows links inside a remote"),
        "\(arguments): \(result)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: elsewhere) == before, "\(arguments)")
    }
    // Nothing pending was lost: it goes out once the folder is a folder again.
    #expect(unlink(own) == 0 && rename(elsewhere, own) == 0)
    let again = try laptop.expectSuccess("sync")
    #expect(again.stdout.contains("pushed 1"), "\(again)")
  }

  @Test func aPlainRemoteIsWrittenOwnerOnlyWhateverTheUmask() throws {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("breakfast", "eggs", "--at", "2026-12-01 07:30")
    for arguments in [
      ["remote", "add", "usb", remote, "--no-encrypt"], ["sync", "--compact"],
      ["add", "snack", "tea"], ["sync"],
    ] {
      let result = try Self.runWithUmask0(arguments, environment: laptop.environment)
      #expect(result.status == 0, "\(arguments): \(result.stdout) \(result.stderr)")
    }
    var modes: [String: String] = [:]
    let walker = try #require(FileManager.default.enumerator(atPath: remote))
    var paths = [""]
    while let path = walker.nextObject() as? String { paths.append(path) }
    for path in paths {
      var info = stat()
      #expect(lstat(remote + "/" + path, &info) == 0)
      modes[path.isEmpty ? "." : path] = String(info.st_mode & 0o777, radix: 8)
    }
    #expect(
      modes.keys.contains { $0.hasSuffix(".snapshot") }
        && modes.keys.contains { $0.hasSuffix(".batch") }, "\(modes)")
    for (path, mode) in modes {
      let isFolder = FileManager.default.isDirectory(remote + "/" + path)
      #expect(mode == (isFolder ? "700" : "600"), "\(path) is \(mode)")
    }
  }

  /// `lifelog arguments…` under `umask 0`, through the shell: the test process's own umask is
  /// shared by every test running at once.
  static func runWithUmask0(
    _ arguments: [String], environment: [String: String]
  ) throws -> Subprocess.Output {
    try Subprocess.run(
      "/bin/sh", ["-c", "umask 0; exec \"$0\" \"$@\"", LifelogProcess.binaryPath] + arguments,
      environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()].merging(environment) {
        $1
      })
  }
}

extension FileManager {
  fileprivate func isDirectory(_ path: String) -> Bool {
    var folder: ObjCBool = false
    return fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
  }
}

/// Names a hostile folder gives its files and folders: shown escaped, never used as numbers.
extension HostileFolderTests {
  /// A device folder named with terminal escapes, holding only a batch 2, is held back as missing
  /// batch 1; the warning and `status` show its name escaped instead of clearing the screen.
  @Test func aDeviceFolderNamedWithEscapesIsShownEscapedWhenItsBatchIsHeld() throws {
    let (laptop, desktop, _) = try threeMachines()
    let hostile = remote + "/devices/\u{1B}[2J\u{1B}]0;owned\u{07}"
    try FileManager.default.createDirectory(atPath: hostile, withIntermediateDirectories: false)
    try FileManager.default.copyItem(
      atPath: remote + "/devices/\(desktop)/0000000001.batch", toPath: hostile + "/0000000002.batch"
    )
    let sync = try laptop.expectSuccess("sync")
    let status = try laptop.expectSuccess("status")
    for text in [sync.stdout, sync.stderr, status.stdout, status.stderr] {
      #expect(!text.utf8.contains(0x1B) && !text.utf8.contains(0x07), "\(sync)\n\(status)")
    }
    #expect(sync.stderr.contains("\\x1b[2J"), "\(sync)")
  }

  /// A batch file numbered past 2^31 in another device's folder is not a batch lifelog wrote: no
  /// arithmetic on its number, so `check` names it as stray and `sync` passes it over.
  @Test func aBatchNumberedPastTheLargestSeqIsStrayNotATrap() throws {
    let (laptop, desktop, _) = try threeMachines()
    try FileManager.default.copyItem(
      atPath: remote + "/devices/\(desktop)/0000000001.batch",
      toPath: remote + "/devices/\(desktop)/9223372036854775807.batch")
    try laptop.expectSuccess("sync")
    let check = try laptop.run("check", "--remote", "usb")
    #expect(check.exitCode == 65, "\(check)")
    #expect(
      check.stdout.contains("9223372036854775807.batch: it is not named like a batch"), "\(check)")
  }
}

/// A folder of a remote holding millions of names costs at most the listing cap
/// (`RemoteFolder.nameLimit`, 100,000 names): past it, `devices/` or `snapshots/` make the remote
/// unusable with a clear error (exit 69), and one device's folder holds back only that device.
extension HostileFolderTests {
  /// One name more than lifelog lists in one folder.
  static let tooManyNames = 100_001

  /// Makes `count` empty files named `junk-<n>` in the folder `path`.
  func fill(_ path: String, count: Int) throws {
    for index in 0..<count {
      let descriptor = open(path + "/junk-\(index)", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
      try #require(descriptor >= 0, "cannot create a file in \(path)")
      close(descriptor)
    }
  }

  @Test(arguments: ["devices", "snapshots"])
  func aTopFolderWithMoreNamesThanTheCapIsAClearErrorExit69(_ name: String) throws {
    let (laptop, _, _) = try threeMachines()
    try fill(remote + "/" + name, count: Self.tooManyNames)
    let sync = try laptop.run("sync")
    #expect(sync.exitCode == 69, "\(sync)")
    #expect(
      sync.stderr.contains(
        "'\(remote)/\(name)' holds more than 100000 names, more than lifelog lists in a remote folder"
      ), "\(sync)")
  }

  @Test func aDeviceFolderWithMoreNamesThanTheCapHoldsBackOnlyThatDevice() throws {
    let (laptop, desktop, _) = try threeMachines()
    try fill(remote + "/devices/" + desktop, count: Self.tooManyNames)
    let sync = try laptop.run("sync")
    #expect(sync.exitCode == 0, "\(sync)")
    #expect(
      sync.stderr.contains(
        "Warning: skipped devices/\(desktop): '\(remote)/devices/\(desktop)' holds more than "
          + "100000 names"), "\(sync)")
    // Its batch 1 is read by name; only the listing (is there a later batch?) is refused.
    #expect(try notes(laptop) == ["eggs", "tea"])
    let status = try laptop.expectSuccess("status")
    #expect(status.stdout.contains("    batch 2 of device \(desktop): unreadable ("), "\(status)")
  }
}
