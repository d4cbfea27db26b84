import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// Activities named in a person's language, and two activities joined into one, through the real
/// binary and a real folder remote.
@Suite struct ActivityNamesTests {
  let folder = TemporaryDirectory()

  @Test func aPolishLogStartsWithPolishBuiltInsThatStillMergeWithEnglishOnes() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    var polish = laptop.environment
    polish["LANG"] = "pl_PL.UTF-8"
    let activities = try LifelogProcess.run(["activity", "list"], environment: polish)
    for name in ["śniadanie", "obiad", "kolacja", "przekąska", "spacer"] {
      #expect(activities.stdout.contains(name), "\(name): \(activities)")
    }
    #expect(!activities.stdout.contains("breakfast"), "\(activities)")
    // Names are data: the locale at a later run changes nothing.
    #expect(try laptop.expectSuccess("activity", "list").stdout.contains("obiad"))
    let lunch = try laptop.add("obiad", "zupa", "--at", "2026-12-01 13:00")
    #expect(try laptop.expectSuccess("due").stdout.contains("obiad"), "a meal to due")

    let remote = folder.file("usb/lifelog")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    try laptop.expectSuccess("sync")
    try desktop.expectSuccess("remote", "add", "usb", remote)
    try desktop.expectSuccess("sync")
    let entry = try #require(try desktop.entries()[lunch])
    #expect(entry["activity"] as? String == "lunch", "one built-in, each machine's name: \(entry)")
    let list = try desktop.expectSuccess("activity", "list").stdout
    #expect(!list.contains("obiad"), "no second activity: \(list)")
  }

  @Test func mergeMovesEveryEntryAndArchivesTheOldName() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    try laptop.expectSuccess("activity", "add", "śniadanie", "--kind", "meal")
    let first = try laptop.add("śniadanie", "owsianka", "--at", "2026-12-01 08:00")
    let second = try laptop.add("breakfast", "toast", "--at", "2026-12-02 08:00")
    let remote = folder.file("usb/lifelog")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    try laptop.expectSuccess("sync")
    try desktop.expectSuccess("remote", "add", "usb", remote)
    try desktop.expectSuccess("sync")

    let merged = try laptop.expectSuccess("activity", "merge", "śniadanie", "breakfast")
    #expect(
      merged.stdout
        == "Moved 1 entry from 'śniadanie' to 'breakfast' (meal); archived 'śniadanie'\n",
      "\(merged)")
    try laptop.expectSuccess("sync")
    try desktop.expectSuccess("sync")
    for machine in [laptop, desktop] {
      let entries = try machine.entries()
      #expect(entries[first]?["activity"] as? String == "breakfast", "\(machine.name)")
      #expect(entries[second]?["activity"] as? String == "breakfast", "\(machine.name)")
      let list = try machine.expectSuccess("activity", "list").stdout
      let line = list.split(separator: "\n").first { $0.hasPrefix("śniadanie") } ?? ""
      #expect(line.contains("archived"), "\(machine.name): \(list)")
    }
    let same = try laptop.run("activity", "merge", "breakfast", "Breakfast")
    #expect(same.exitCode == 65, "\(same)")
  }
}
