import LifelogCore
import LifelogProtocol
import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogSync

/// ``RowCodec`` against a real log: a whole row written and read back is the same row, through
/// Core's column map, whatever order the table's columns are in.
@Suite struct RowCodecTests {
  let folder = TemporaryDirectory()

  static func stamps(_ entity: SyncedEntity) -> FieldStamps {
    var stamps = FieldStamps(count: entity.fields.count)
    for index in entity.fields.indices {
      stamps[index] = Stamp.make(milliseconds: 1_000 + Int64(index), counter: 0, device: "ab")
    }
    return stamps
  }

  static let rows: [RowChange] = [
    RowChange(
      entity: .entry, id: "e1",
      values: [
        .text("a1"), .time(LoggedTime(instant: 1_764_570_600, offsetMinutes: 60)), .integer(900),
        .text("toast, jam"), .real(2.5), .tags(["home", "quick"]), .text("import"), .flag(false),
      ], stamps: stamps(.entry)),
    RowChange(
      entity: .activity, id: "a1",
      values: [.text("Breakfast"), .text("meal"), .text("g"), .null, .flag(true), .flag(false)],
      stamps: stamps(.activity)),
    RowChange(
      entity: .setting, id: "mealGapHours", values: [.text("2.5")], stamps: stamps(.setting)),
  ]

  @Test(arguments: rows)
  func aRowWrittenIsTheRowReadBack(_ row: RowChange) throws {
    let store = try LogStore(path: folder.file("log.db"))
    try RowCodec.write(row, in: store.database)
    #expect(try RowCodec.read(row.entity, id: row.id, in: store.database) == row)
  }

  @Test func aRowIsReadByColumnNameWhenATableGainsAColumn() throws {
    let store = try LogStore(path: folder.file("log.db"))
    // A column Core adds to a table goes after the ones there: nothing shifts what is read.
    try store.database.execute(sql: "ALTER TABLE entry ADD COLUMN mood TEXT DEFAULT 'fine'")
    let row = Self.rows[0]
    try RowCodec.write(row, in: store.database)
    #expect(try RowCodec.read(.entry, id: row.id, in: store.database) == row)
  }

  @Test func writingAnActivityWritesTheNameKeyDerivedFromItsName() throws {
    let store = try LogStore(path: folder.file("log.db"))
    try RowCodec.write(Self.rows[1], in: store.database)
    let key = try store.database.cachedStatement(
      sql: "SELECT name_key FROM activity WHERE id = 'a1'"
    ).first { row -> String in row[0] }
    #expect(key == ActivityName.key("Breakfast"))
  }

  /// The codec names every field of the field map when it reads a row, and every column when it
  /// writes one: a field or column added to ``SyncedColumns`` (and ``SyncedEntity/fields``)
  /// without the codec being told fails here, instead of syncing as null.
  @Test(arguments: rows)
  func theCodecReadsAndWritesEveryFieldAndColumnOfTheFieldMapByName(_ row: RowChange) throws {
    let store = try LogStore(path: folder.file("log.db"))
    try RowCodec.write(row, in: store.database)
    let entity = row.entity
    let map = entity.columns
    let read = try #require(
      try store.database.cachedStatement(
        sql: "SELECT \(RowCodec.columns(entity)) FROM \(entity.table) WHERE \(entity.idMatch())"
      ).first([row.id]) { RowCodec.fieldValues(entity, $0) })
    #expect(Set(read.keys) == Set(entity.fields))
    #expect(Set(read.keys) == Set(map.fields.map(\.field)))
    let written = try #require(try RowCodec.columnValues(row, in: store.database))
    let stored = Array(map.selected.dropFirst()) + map.derived
    #expect(Set(written.keys) == Set(stored.filter { $0 != map.stamps }))
  }
}
