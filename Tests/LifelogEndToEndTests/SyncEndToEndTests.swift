import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Synchronization
import Testing

/// Sync through a folder remote with the real `lifelog` binary, the way a person (or cron) uses it:
/// several machines, each with its own log, meeting in one folder.
@Suite struct SyncEndToEndTests {
  let folder = TemporaryDirectory(prefix: "lifelog-sync-e2e")
  var remote: String { folder.file("usb/lifelog") }

  // MARK: - As a user would

  @Test func machinesConvergeThroughAFolderAsAUserWouldSeeIt() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)

    // Entries made before any remote existed.
    let breakfast = try laptop.add("breakfast", "oatmeal", "--at", "2026-12-01 07:30")
    let walk = try laptop.add("walk", "--duration", "30m", "--at", "2026-12-01 17:00")
    let lunch = try desktop.add("lunch", "soup", "--at", "2026-12-01 12:30")

    let created = try laptop.expectSuccess("remote", "add", "usb", remote)
    #expect(created.stdout.contains("Created a new remote 'usb' at \(remote)"), "\(created)")
    let joined = try desktop.expectSuccess("remote", "add", "usb", "file://" + remote)
    #expect(joined.stdout.contains("Joined the remote 'usb' at \(remote)"), "\(joined)")
    let list = try desktop.expectSuccess("remote", "list")
    #expect(
      list.stdout.contains("usb") && list.stdout.contains(remote)
        && list.stdout.contains("never synced"), "\(list)")

    try SyncMachine.convergeAsAUserWould(
      laptop: laptop, desktop: desktop, remote: "usb", entries: (breakfast, walk, lunch), in: folder
    ) { phone in
      let phoneJoined = try phone.expectSuccess("remote", "add", "usb", remote)
      #expect(phoneJoined.stdout.contains("Joined the remote 'usb'"))
    }
  }

  @Test func aVanishedOrReplacedRemoteIsRefusedAndNeverRecreated() throws {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    try laptop.expectSuccess("sync")

    // The drive is unmounted (the folder renamed away): 69, naming the path, nothing re-created.
    let away = folder.file("usb/lifelog-away")
    try FileManager.default.moveItem(atPath: remote, toPath: away)
    _ = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    let vanished = try laptop.run("sync")
    #expect(vanished.exitCode == 69, "\(vanished)")
    #expect(vanished.stderr.hasPrefix("Error: "), "\(vanished)")
    #expect(vanished.stderr.contains(remote), "the message names the missing folder: \(vanished)")
    #expect(
      !FileManager.default.fileExists(atPath: remote), "sync must not re-create a vanished remote")
    let quietFailure = try laptop.run("sync", "--quiet")
    #expect(
      quietFailure.exitCode == 69 && quietFailure.stderr.contains(remote),
      "--quiet still reports failures")
    let status = try laptop.expectSuccess("status")
    #expect(status.stdout.contains("(failed: "), "\(status)")

    // Emptied (the manifest gone) is refused too.
    try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: false)
    let emptied = try laptop.run("sync")
    #expect(emptied.exitCode == 69, "\(emptied)")
    #expect(
      emptied.stderr.contains(remote) && emptied.stderr.contains("lifelog-remote.json"),
      "\(emptied)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: remote).isEmpty, "nothing written into it"
    )
    try FileManager.default.removeItem(atPath: remote)

    // Mounted again: the sync goes on where it stopped.
    try FileManager.default.moveItem(atPath: away, toPath: remote)
    let back = try laptop.expectSuccess("sync")
    #expect(back.stdout.contains("pushed 1"), "\(back)")

    // A different remote at the same path (another log created one there): 69 "different remote".
    try FileManager.default.moveItem(atPath: remote, toPath: away)
    let stranger = SyncMachine("stranger", in: folder)
    let strangerRemote = try stranger.expectSuccess("remote", "add", "theirs", remote)
    #expect(strangerRemote.stdout.contains("Created a new remote"))
    _ = try laptop.add("dinner", "pasta", "--at", "2026-12-01 19:00")
    let different = try laptop.run("sync")
    #expect(different.exitCode == 69, "\(different)")
    #expect(different.stderr.contains("different remote"), "\(different)")
    #expect(different.stderr.contains(remote), "\(different)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: remote + "/devices").isEmpty,
      "nothing of this log was written into the other remote")
  }

  @Test func remotesAreAddedListedAndRemovedWithoutTouchingTheFolder() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let empty = try laptop.expectSuccess("remote", "list")
    #expect(empty.stdout.contains("No remotes"), "\(empty)")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    let again = try laptop.run("remote", "add", "usb", folder.file("elsewhere"))
    #expect(again.exitCode == 65 && again.stderr.contains("already exists"), "\(again)")
    #expect(
      !FileManager.default.fileExists(atPath: folder.file("elsewhere")),
      "nothing created for a refused add")

    // A folder holding other things is not turned into a remote.
    let photos = folder.file("photos")
    try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
    try Data("jpeg".utf8).write(to: URL(fileURLWithPath: photos + "/cat.jpg"))
    let notEmpty = try laptop.run("remote", "add", "photos", photos)
    #expect(notEmpty.exitCode == 69 && notEmpty.stderr.contains(photos), "\(notEmpty)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: photos) == ["cat.jpg"])

    _ = try laptop.add("breakfast", "eggs")
    try laptop.expectSuccess("sync")
    let json = try SyncMachine.objects(
      inJSON: laptop.expectSuccess("remote", "list", "--format", "json").stdout)
    #expect(
      json.count == 1 && json.first?["name"] as? String == "usb"
        && json.first?["url"] as? String == remote)
    #expect(json.first?["lastOutcome"] as? String == "ok", "\(json)")

    let removed = try laptop.expectSuccess("remote", "remove", "usb")
    #expect(removed.stdout.contains("Removed remote 'usb'"), "\(removed)")
    #expect(
      FileManager.default.fileExists(atPath: remote + "/lifelog-remote.json"),
      "the folder is left as it was")
    let nothing = try laptop.run("sync")
    #expect(nothing.exitCode == 78 && nothing.stderr.contains("lifelog remote add"), "\(nothing)")
    let missing = try laptop.run("remote", "remove", "usb")
    #expect(missing.exitCode == 65, "\(missing)")
    let unknown = try laptop.run("sync", "usb")
    #expect(unknown.exitCode == 65 && unknown.stderr.contains("'usb'"), "\(unknown)")

    // Added again, it is joined, and nothing is sent twice.
    let rejoined = try laptop.expectSuccess("remote", "add", "usb", remote)
    #expect(rejoined.stdout.contains("Joined the remote"), "\(rejoined)")
    try laptop.syncUntilQuiet()
    let desktop = SyncMachine("desktop", in: folder)
    try desktop.expectSuccess("remote", "add", "usb", remote)
    try desktop.syncUntilQuiet()
    #expect(try desktop.sortedListLines() == (try laptop.sortedListLines()))
  }

  // MARK: - Side by side

  @Test func aSyncLoopAndAnAddLoopRunSideBySideWithoutFailures() throws {
    let writer = SyncMachine("writer", in: folder)
    let other = SyncMachine("other", in: folder)
    try writer.expectSuccess("remote", "add", "usb", remote)
    try other.expectSuccess("remote", "add", "usb", remote)
    var fromOther = Set(try other.addBacklog(500, label: "other"))
    try other.expectSuccess("sync")
    fromOther.formUnion(try other.addBacklog(500, label: "other later", startingAt: 1_790_000_000))
    try other.expectSuccess("sync")

    let seconds = Double(
      ProcessInfo.processInfo.environment["SYNC_LOOP_SECONDS"].flatMap(Int.init) ?? 20)
    let end = Date().addingTimeInterval(seconds)
    let added = Mutex<[String]>([])
    let failedAdds = Mutex<[String]>([])
    let syncs = Mutex<(count: Int, failures: [String])>((0, []))
    DispatchQueue.concurrentPerform(iterations: 2) { loop in
      var index = 0
      while Date() < end {
        index += 1
        if loop == 0 {
          let note = "loop \(index)"
          let result = try? writer.run("add", "snack", note, "--tag", "loop")
          if result?.exitCode == 0 {
            added.withLock { $0.append(note) }
          } else {
            failedAdds.withLock { $0.append(result?.description ?? "did not start") }
          }
        } else {
          let result = try? writer.run("sync")
          syncs.withLock {
            $0.count += 1
            if let result, result.exitCode == 0, !result.stderr.lowercased().contains("locked") {
              return
            }
            $0.failures.append(result?.description ?? "did not start")
          }
        }
      }
    }
    let adds = added.withLock { $0 }
    let (syncCount, syncFailures) = syncs.withLock { ($0.count, $0.failures) }
    print(
      "SyncEndToEndTests: \(adds.count) adds and \(syncCount) syncs side by side in \(Int(seconds)) s"
    )
    #expect(failedAdds.withLock { $0 } == [])
    #expect(syncFailures == [], "no sync failed or met a locked database")
    #expect(adds.count > 20 && syncCount > 5, "both loops ran")

    try writer.syncUntilQuiet()
    try other.syncUntilQuiet()
    let notes = try other.entries().values.compactMap { $0["note"] as? String }.filter {
      $0.hasPrefix("loop ")
    }
    #expect(notes.sorted() == adds.sorted(), "every add reached the other machine once")
    #expect(fromOther.isSubset(of: try writer.entries().keys))
  }
}
