import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog check --remote` on a hostile folder reports a FIFO,
/// a link and a folder named like batches as damaged, at once, instead of hanging or following them.
@Suite struct CheckHostileFolderTests {
  let folder = TemporaryDirectory(prefix: "lifelog-check-hostile-folder")

  @Test func aFIFOALinkAndAFolderNamedLikeBatchesAreDamagedNotFollowed() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let remote = folder.file("usb")
    try laptop.expectSuccess("remote", "add", "usb", remote, "--no-encrypt")
    _ = try laptop.add("snack", "apple", "--at", "2026-12-01 10:00")
    try laptop.expectSuccess("sync")
    let other = remote + "/devices/0b7c9a52-3f8e-4a61-9d2e-5c1f7e8a4b30"
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
    #expect(mkfifo(other + "/0000000001.batch", 0o600) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: other + "/0000000002.batch", withDestinationPath: "/dev/zero")
    try FileManager.default.createDirectory(
      atPath: other + "/0000000003.batch", withIntermediateDirectories: false)

    let result = try laptop.run("check", "--remote", "usb", "--timeout", "30")
    #expect(result.exitCode == 65, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    for seq in 1...3 {
      #expect(
        lines.contains {
          $0.hasPrefix(
            "remote 'usb': devices/0b7c9a52-3f8e-4a61-9d2e-5c1f7e8a4b30/000000000\(seq).batch: it cannot be read: "
          )
        },
        "\(result)")
    }
    #expect(
      lines.last?.hasPrefix("Damage found: 3 problems;") == true,
      "no gap: each seq is there, unreadable: \(result)")
  }
}
