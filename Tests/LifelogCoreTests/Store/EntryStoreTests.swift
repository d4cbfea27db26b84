import LifelogCore
import LifelogTestSupport
import Testing

@Suite struct EntryStoreTests {
  let store: LogStore
  let snack = ActivityName.derivedID(for: "snack")
  let walk = ActivityName.derivedID(for: "walk")

  init() throws {
    store = try LogStore(path: ":memory:")
  }

  private func at(_ hour: Int) -> LoggedTime {
    LoggedTime(instant: 1_764_633_600 + Int64(hour) * 3600, offsetMinutes: 60)
  }

  @Test func anEntryReadsBackWithEveryField() throws {
    let added = try store.add(
      NewEntry(
        activityID: walk, time: LoggedTime(instant: 1_764_633_600, offsetMinutes: -300),
        duration: 2700,
        note: "park, \"long\" way\nhome", quantity: 4.25, tags: ["outdoor", "dog"], source: "test"))
    #expect(added.activityName == "walk")
    #expect(added.kind == .exercise)
    #expect(added.time == LoggedTime(instant: 1_764_633_600, offsetMinutes: -300))
    #expect(added.duration == 2700)
    #expect(added.note == "park, \"long\" way\nhome")
    #expect(added.quantity == 4.25)
    #expect(added.tags == ["outdoor", "dog"])
    #expect(added.source == "test")
    #expect(added.deleted == false)
    #expect(try store.entry(id: added.id) == added)
  }

  @Test func aLimitGivesTheMostRecentEntriesOldestFirst() throws {
    for hour in [5, 1, 3, 2, 4] {
      try store.add(NewEntry(activityID: snack, time: at(hour), note: "\(hour)"))
    }
    #expect(try store.entries(EntryQuery(limit: 3)).map(\.note) == ["3", "4", "5"])
    #expect(try store.entries(EntryQuery()).map(\.note) == ["1", "2", "3", "4", "5"])
  }

  @Test func rangesIncludeTheirStartAndExcludeTheirEnd() throws {
    for hour in 1...5 {
      try store.add(NewEntry(activityID: snack, time: at(hour), note: "\(hour)"))
    }
    let query = EntryQuery(from: at(2).instant, to: at(4).instant)
    #expect(try store.entries(query).map(\.note) == ["2", "3"])
  }

  @Test func activityAndDeletedFiltersSelectOnlyTheirEntries() throws {
    let first = try store.add(NewEntry(activityID: snack, time: at(1), note: "apple"))
    try store.add(NewEntry(activityID: walk, time: at(2), note: "park"))
    try store.add(NewEntry(activityID: snack, time: at(3), note: "nuts"))
    #expect(try store.entries(EntryQuery(activityID: walk)).map(\.note) == ["park"])
    let results = try store.setDeleted(true, ids: [first.id])
    #expect(results.map(\.changed) == [true])
    #expect(try store.setDeleted(true, ids: [first.id]).map(\.changed) == [false])
    #expect(try store.entries(EntryQuery()).map(\.note) == ["park", "nuts"])
    #expect(try store.entries(EntryQuery(deleted: true)).map(\.note) == ["apple"])
    #expect(try store.setDeleted(false, ids: [first.id]).map(\.changed) == [true])
    #expect(try store.entryCount() == 3)
  }

  @Test func anUpdateChangesOnlyTheFieldsNamedAndCanClearThem() throws {
    let entry = try store.add(
      NewEntry(
        activityID: snack, time: at(1), duration: 60, note: "apple", quantity: 1, tags: ["a"]))
    var changes = EntryChanges()
    changes.note = .some("pear")
    changes.duration = .some(nil)
    let updated = try store.update(id: entry.id, with: changes)
    #expect(updated.note == "pear")
    #expect(updated.duration == nil)
    #expect(updated.quantity == 1)
    #expect(updated.tags == ["a"])
    #expect(updated.time == entry.time)
  }

  @Test func aPrefixOfFourOrMoreDigitsFindsTheOneEntry() throws {
    try store.add(
      NewEntry(id: "abcd1234-0000-4000-8000-000000000001", activityID: snack, time: at(1)))
    try store.add(
      NewEntry(id: "abcd5678-0000-4000-8000-000000000002", activityID: snack, time: at(2)))
    #expect(try store.resolveEntryID("abcd1") == "abcd1234-0000-4000-8000-000000000001")
    #expect(try store.resolveEntryID("ABCD5678") == "abcd5678-0000-4000-8000-000000000002")
    #expect(try store.resolveEntryID("abcd1234-0000") == "abcd1234-0000-4000-8000-000000000001")
    #expect(try store.resolveEntryID("abcd123400004") == "abcd1234-0000-4000-8000-000000000001")
  }

  @Test func anAmbiguousPrefixListsTheCandidates() throws {
    try store.add(
      NewEntry(id: "abcd1234-0000-4000-8000-000000000001", activityID: snack, time: at(1)))
    try store.add(
      NewEntry(id: "abcd5678-0000-4000-8000-000000000002", activityID: walk, time: at(2)))
    let error = try #require(throws: InputError.self) { try store.resolveEntryID("abcd") }
    #expect(error.message.contains("ambiguous"))
    #expect(error.message.contains("abcd1234"))
    #expect(error.message.contains("abcd5678"))
    #expect(error.message.contains("walk"))
  }

  @Test(arguments: ["abc", "zzzz", "12 34", "", "abcd1234-0000-4000-8000-0000000000011"])
  func aMalformedPrefixIsRefused(prefix: String) throws {
    let error = try #require(throws: InputError.self) { try store.resolveEntryID(prefix) }
    #expect(error.message.contains("not an entry id"))
  }

  @Test func anUnknownPrefixSaysHowToFindIds() throws {
    let error = try #require(throws: InputError.self) { try store.resolveEntryID("ffff") }
    #expect(error.message.contains("lifelog list"))
  }

  @Test func randomIdsDoNotShareTheirShortPrefix() throws {
    var seen = Set<String>()
    for _ in 0..<2000 { seen.insert(UUIDText.short(UUIDText.random())) }
    #expect(seen.count == 2000)
    let id = UUIDText.random()
    #expect(id.count == 36)
    #expect(Array(id)[14] == "4")
  }

  @Test func manyEntriesGoInAllOrNothing() throws {
    let good = NewEntry(id: "11111111-0000-4000-8000-000000000001", activityID: snack, time: at(1))
    let duplicate = NewEntry(
      id: "11111111-0000-4000-8000-000000000001", activityID: snack, time: at(2))
    #expect(throws: (any Error).self) { try store.add(contentsOf: [good, duplicate]) }
    #expect(try store.entryCount() == 0)
  }

  /// A bulk add queues its rows for sync with one statement at the end: each added entry once, in
  /// the order given, after what was queued before, with the bulk's one stamp; a bulk add that
  /// fails queues nothing.
  @Test func aBulkAddQueuesEachEntryOnceInOrder() throws {
    let earlier = try store.add(NewEntry(activityID: walk, time: at(0)))
    let ids = (1...5).map { "22222222-0000-4000-8000-00000000000\($0)" }
    try store.add(
      contentsOf: ids.reversed().enumerated().map { offset, id in
        NewEntry(id: id, activityID: snack, time: at(offset + 1), tags: ["a", "b"])
      })
    let bad = NewEntry(id: ids[0], activityID: snack, time: at(9))
    #expect(throws: (any Error).self) {
      try store.add(
        contentsOf: [
          NewEntry(id: "33333333-0000-4000-8000-000000000001", activityID: snack, time: at(8)), bad,
        ])
    }
    try store.inTransaction { try store.queueEntriesPastMark() }
    let queued = try store.database.cachedStatement(
      sql: "SELECT entity, id FROM sync_pending WHERE entity = 'entry' ORDER BY position"
    ).map { "\($0[0] as String) \($0[1] as String)" }
    #expect(queued == ["entry \(earlier.id)"] + ids.reversed().map { "entry \($0)" })
    let stamps = try store.database.cachedStatement(
      sql: "SELECT DISTINCT stamps FROM entry WHERE hex(id) LIKE '22222222%'"
    ).map { $0[0] as String }
    #expect(stamps.count == 1)
    #expect(try store.entry(id: ids[0])?.tags == ["a", "b"])
  }
}
