import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogProtocol
import LifelogSync
import LifelogTestSupport
import Testing

/// Entry ids and activity ids in forms schema v5 does not store as 16 bytes, sent by a stranger's
/// crafted batches to a folder remote and met through the real binary: they come back out exactly
/// (`list --format json`, `export`, the next batch sent), two machines end with the same log, and
/// an entry whose activity never arrives, or arrives later, is named by `check` and counted once
/// it does.
@Suite struct HostileEntryIDTests {
  let folder = TemporaryDirectory(prefix: "lifelog-hostile-ids")
  var remote: String { folder.file("remote") }
  static let stranger = "c0ffee00-0000-4000-8000-00000000f00d"
  static let hike = ActivityName.derivedID(for: "hike")
  static let oddActivity = "not a uuid activity"
  static let ids: [String] = [
    "92AE6D22-83FC-4E56-9AFD-D5B59B27C33F", "92ae6d22-83fc-4e56-9afd-d5b59b27c33f",
    "{92ae6d22-83fc-4e56-9afd-d5b59b27c33f}", "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",
    "0123456789abcdef", "1a2b\u{0}nul", "\u{1B}[2J\u{7}", String(repeating: "L", count: 5_000),
  ]

  static func row(
    _ entity: SyncedEntity, _ id: String, _ values: [FieldValue], _ counter: Int
  )
    -> RowChange
  {
    let stamp = Stamp.make(
      milliseconds: LogStore.systemMilliseconds() - 60_000, counter: counter, device: stranger)
    return RowChange(
      entity: entity, id: id, values: values,
      stamps: FieldStamps(count: values.count, stamp: stamp))
  }

  static func batch(_ seq: Int, _ changes: [RowChange]) -> [UInt8] {
    BatchCodec.encode(
      Batch(
        device: stranger, seq: seq, created: LogStore.systemMilliseconds() - 60_000,
        changes: changes))
  }

  func write(_ bytes: [UInt8], seq: Int) throws {
    let path = remote + "/devices/\(Self.stranger)/" + String(format: "%010d", seq) + ".batch"
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  @Test func oddIdsRoundTripThroughTheBinaryAndTwoMachinesConverge() throws {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    try laptop.expectSuccess("sync")
    // Batch 1: entries of every odd id, on `hike` (its activity row comes in batch 2) and on an
    // activity id that is not a UUID.
    let entries = Self.ids.enumerated().map { index, id in
      Self.row(
        .entry, id,
        [
          .text(index % 2 == 0 ? Self.hike : Self.oddActivity),
          .time(LoggedTime(instant: 1_796_140_800 + Int64(index) * 60, offsetMinutes: 60)), .null,
          .text("n\(index)"), .null, .tags([]), .null, .flag(false),
        ], index)
    }
    try write(Self.batch(1, entries), seq: 1)
    try laptop.expectSuccess("sync")
    let listed = try laptop.entries()
    for id in Self.ids {
      #expect(listed[id] != nil, "list lacks \(id.debugDescription.prefix(60))")
    }
    let export = try laptop.expectSuccess("export", "--format", "jsonl")
    let exported = try export.stdout.split(separator: "\n").map {
      try #require(
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["id"] as? String
    }
    #expect(Set(exported) == Set(Self.ids).union(listed.keys.filter { !Self.ids.contains($0) }))
    // Neither activity exists yet: check names the entries, every read command still runs.
    let check = try laptop.run("check")
    #expect(check.exitCode == 65, "\(check)")
    #expect(check.stdout.contains("Damage found: 8 problems"), "\(check)")
    for command in [["activity", "list"], ["due"], ["report", "--from", "2026-12-01"]] {
      let result = try LifelogProcess.run(command, environment: laptop.environment)
      #expect(result.exitCode == 0, "\(command): \(result)")
    }
    // Batch 2: both activities arrive (one id not a UUID); their entries now count.
    try write(
      Self.batch(
        2,
        [
          Self.row(
            .activity, Self.hike,
            [.text("hike"), .text("exercise"), .null, .null, .flag(false), .flag(false)], 20),
          Self.row(
            .activity, Self.oddActivity,
            [.text("odd"), .text("other"), .null, .null, .flag(false), .flag(false)], 21),
        ]), seq: 2)
    try laptop.expectSuccess("sync")
    try laptop.expectSuccess("check")
    let activities = try laptop.expectSuccess("activity", "list", "--format", "json")
    let counts = Dictionary(
      uniqueKeysWithValues: try SyncMachine.objects(inJSON: activities.stdout).compactMap {
        object -> (String, Int)? in
        guard let name = object["name"] as? String else { return nil }
        return (name, object["entries"] as? Int ?? -1)
      })
    #expect(counts["hike"] == 4 && counts["odd"] == 4, "\(activities)")
    // The laptop edits the one odd id a short id reaches, and syncs: its batch carries that id.
    try laptop.expectSuccess("edit", "0123", "--note", "edited here")
    try laptop.expectSuccess("sync")
    let pushed = try FileManager.default.contentsOfDirectory(atPath: remote + "/devices")
      .filter { $0 != Self.stranger }
    let laptopDevice = try #require(pushed.first)
    let files = try FileManager.default.contentsOfDirectory(
      atPath: remote + "/devices/" + laptopDevice
    ).sorted()
    let last = try #require(files.last)
    let bytes = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: remote + "/devices/\(laptopDevice)/\(last)")))
    let sent = try BatchCodec.decode(bytes)
    #expect(sent.changes.map(\.id) == ["0123456789abcdef"])
    // A second machine gets the same log.
    let phone = SyncMachine("phone", in: folder)
    try phone.expectSuccess("remote", "add", "usb", remote)
    try phone.syncUntilQuiet()
    try laptop.syncUntilQuiet()
    #expect(try phone.sortedListLines() == laptop.sortedListLines())
    #expect(try phone.entries()["0123456789abcdef"]?["note"] as? String == "edited here")
  }

  /// An id of control characters from a stranger, the most recent entry so `last` reaches it:
  /// `show`, `edit`, `delete` and `undo` print it escaped, never its bytes; an id that is not hex
  /// digits is reached by its full text.
  @Test func anIdOfControlCharactersNeverReachesTheTerminalRaw() throws {
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "usb", remote)
    let now = LogStore.systemMilliseconds() / 1000
    let evil = "\u{1B}]0;pwned\u{7}\u{1B}[2J"
    let braces = "{92ae6d22-83fc-4e56-9afd-d5b59b27c33f}"
    let lunch = ActivityName.derivedID(for: "lunch")
    let rows = [evil, braces].enumerated().map { index, id in
      Self.row(
        .entry, id,
        [
          .text(lunch),
          .time(LoggedTime(instant: now - Int64(60 * (index + 1)), offsetMinutes: 60)),
          .null, .text("from afar"), .null, .tags([]), .null, .flag(false),
        ], index)
    }
    try write(Self.batch(1, rows), seq: 1)
    try laptop.expectSuccess("sync")
    let outputs = [
      try laptop.expectSuccess("show", "last"),
      try laptop.expectSuccess("edit", "last", "--note", "here"),
      try laptop.expectSuccess("undo"),
      try laptop.expectSuccess("delete", "last"),
      try laptop.expectSuccess("undo", "--list"),
      try laptop.expectSuccess("undo"),
    ]
    for output in outputs {
      #expect(!output.stdout.contains("\u{1B}") && !output.stdout.contains("\u{7}"), "\(output)")
    }
    #expect(outputs[1].stdout.contains("\\x1b]0;pw"), "\(outputs[1])")
    try laptop.expectSuccess("edit", braces, "--note", "by its full id")
    #expect(try laptop.entries()[braces]?["note"] as? String == "by its full id")
    #expect(try laptop.entries()[evil]?["note"] as? String == "from afar")
  }

  /// A stranger's entry whose whole id is the short id of an entry of this log: `delete <short>`
  /// names both and deletes neither (an ambiguous id, exit 65), and the full id still reaches the
  /// log's own entry.
  @Test func aSyncedIdEqualToAShortIdIsAmbiguousNotATakeover() throws {
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("add", "lunch", "soup", "--at", "2026-12-01 12:30")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    let own = try #require(try laptop.entries().keys.first)
    let short = String(own.prefix(8))
    let row = Self.row(
      .entry, short,
      [
        .text(ActivityName.derivedID(for: "lunch")),
        .time(LoggedTime(instant: 1_796_140_800, offsetMinutes: 60)), .null, .text("planted"),
        .null, .tags([]), .null, .flag(false),
      ], 0)
    try write(Self.batch(1, [row]), seq: 1)
    try laptop.expectSuccess("sync")
    #expect(try laptop.entries().count == 2)
    let refused = try laptop.run("delete", short)
    #expect(refused.exitCode == 65, "\(refused)")
    #expect(refused.stderr.hasPrefix("Error: Id '\(short)' is ambiguous"), "\(refused)")
    #expect(refused.stderr.contains(own.prefix(13)), "\(refused)")
    #expect(refused.stderr.contains("\(short) (lunch"), "\(refused)")
    #expect(refused.stdout.isEmpty)
    let live = try laptop.entries()
    #expect(live.count == 2 && live[short] != nil && live[own] != nil, "\(live.keys)")
    try laptop.expectSuccess("delete", own)
    #expect(try laptop.entries().keys.sorted() == [short])
  }
}
