import LifelogCore
import LifelogSQLite

/// What both schema-v5 suites (`CompactKeysTests`, `CompactKeysHostileTests`) build their logs
/// from: two default activities, an hour of one fixed day, and a column read back as text.
protocol CompactKeysSample {}

extension CompactKeysSample {
  var lunch: String { ActivityName.derivedID(for: "lunch") }
  var walk: String { ActivityName.derivedID(for: "walk") }

  func at(_ hour: Int) -> LoggedTime {
    LoggedTime(instant: 1_764_633_600 + Int64(hour) * 3600, offsetMinutes: 60)
  }

  func stored(_ store: LogStore, _ sql: String) throws -> [String] {
    try store.database.cachedStatement(sql: sql).map { $0[0] as String }
  }
}
