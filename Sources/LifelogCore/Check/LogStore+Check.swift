import LifelogSQLite

/// `lifelog check` on the log's own tables (docs/cli.md): SQLite's own integrity check, then the
/// invariants of docs/schema.md that no constraint enforces. It only reads: the store is opened
/// with ``LogStore/init(path:schemaVersion:busyTimeoutMilliseconds:readOnly:)`` by the command.
extension LogStore {
  /// How many rows pass between two progress reports.
  static let checkProgressStep = 10_000

  /// Checks the file and every activity, entry and setting, and adds what it finds to `report`.
  ///
  /// Never throws: a table that cannot be read is itself a finding (a damaged page does that).
  ///
  /// - Parameter progress: called now and then with the number of rows read so far.
  public func check(into report: inout CheckReport, progress: (Int) -> Void = { _ in }) {
    var rows = 0
    for name in ["entries", "activities", "settings"] { report.count(name, 0) }
    checking("the file", into: &report) { report in try checkIntegrity(into: &report) }
    checking("the activities", into: &report) { report in
      try checkActivities(into: &report, rows: &rows)
    }
    checking("the entries", into: &report) { report in
      try checkEntries(into: &report, rows: &rows, progress: progress)
    }
    checking("the settings", into: &report) { report in
      try checkSettings(into: &report, rows: &rows)
    }
    checking("the undo steps", into: &report) { report in try checkUndoClocks(into: &report) }
  }

  /// Runs one part of a check, turning an error into a finding instead of ending the check.
  public func checking(
    _ what: String, into report: inout CheckReport, _ body: (inout CheckReport) throws -> Void
  ) {
    do {
      try body(&report)
    } catch {
      report.add("log", "unreadable", "cannot read \(what): \(error)")
    }
  }

  /// `PRAGMA integrity_check`: every page, index and constraint, as SQLite sees them.
  private func checkIntegrity(into report: inout CheckReport) throws {
    let limit = CheckReport.problemsPerCode
    try database.makeStatement(sql: "PRAGMA integrity_check(\(limit))").forEachRow { row in
      let message: String = row[0]
      // One row may hold several lines, the first naming the schema (`*** in database main ***`).
      for line in message.split(separator: "\n") where line != "ok" && !line.hasPrefix("***") {
        report.add(
          "log", "integrity",
          "SQLite's integrity check says: \(CheckText.shown(String(line), limit: 200))")
      }
    }
    let pages = try database.makeStatement(sql: "PRAGMA page_count").first { $0[0] as Int } ?? 0
    report.count("pages", pages)
  }

  private func checkActivities(into report: inout CheckReport, rows: inout Int) throws {
    let hasStamps = try hasColumn("stamps", in: "activity")
    try database.makeStatement(
      sql: "SELECT id, name, name_key, target, \(hasStamps ? "stamps" : "''") FROM activity"
    ).forEachRow { row in
      let id: String = row[0]
      let name: String = row[1]
      let place = "log: activity \(CheckText.shown(name)) (\(CheckText.shown(id)))"
      report.count("activities")
      rows += 1
      if (row[2] as String) != ActivityName.key(name) {
        report.add(
          place, "name",
          "its lookup key is not its name in lower case, so it cannot be found by name")
      }
      if !row.isNull(3), (try? Target(parsing: row[3] as String)) == nil {
        report.add(
          place, "value",
          "its target \(CheckText.quoted(row[3] as String)) is not a target lifelog reads")
      }
      if let problem = CheckText.stampProblem(row[4], entity: .activity) {
        report.add(place, "stamp", problem)
      }
    }
  }

  private func checkEntries(
    into report: inout CheckReport, rows: inout Int, progress: (Int) -> Void
  ) throws {
    let hasStamps = try hasColumn("stamps", in: "entry")
    // A log not yet opened by this version still has text ids and `activity_id` (schema v5).
    let compact = try hasColumn("activity", in: "entry")
    try database.makeStatement(
      sql: compact
        ? """
        SELECT \(StoredEntryID.text(of: "e.id")), coalesce(k.id, 'key ' || e.activity), a.id IS NULL,
          e.quantity, \(hasStamps ? "e.stamps" : "''"), typeof(e.id), length(e.id)
        FROM \(LogStore.entrySource)
        """
        : """
        SELECT e.id, e.activity_id, a.id IS NULL, e.quantity, \(hasStamps ? "e.stamps" : "''"),
          'old', 0
        FROM entry e LEFT JOIN activity a ON a.id = e.activity_id
        """
    ).forEachRow { row in
      let place = "log: entry \(CheckText.shown(row[0] as String))"
      report.count("entries")
      rows += 1
      if rows % LogStore.checkProgressStep == 0 { progress(rows) }
      if compact, let problem = LogStore.storedIDProblem(row[0], type: row[5], bytes: row[6]) {
        report.add(place, "id", problem)
      }
      if (row[2] as Int) != 0 {
        report.add(
          place, "activity",
          "its activity \(CheckText.shown(row[1] as String)) does not exist, so lists and reports skip it"
        )
      }
      if !row.isNull(3) {
        let quantity: Double = row[3]
        if !quantity.isFinite || quantity < 0 {
          report.add(place, "value", "its quantity \(quantity) is not a finite number of 0 or more")
        }
      }
      if let problem = CheckText.stampProblem(row[4], entity: .entry) {
        report.add(place, "stamp", problem)
      }
    }
  }

  /// What is wrong with how an entry id is stored (schema v5, ``StoredEntryID``), or nil.
  ///
  /// A lower-case UUID is kept as its 16 bytes, any other id as text. The table's CHECK refuses
  /// the rest, but a log written with CHECK constraints off (or by hand) can hold them, and a
  /// lookup by id then misses the entry.
  static func storedIDProblem(_ text: String, type: String, bytes: Int) -> String? {
    switch type {
    case "blob" where bytes != 16:
      return
        "its id is \(bytes) \(bytes == 1 ? "byte" : "bytes"), not the 16 of a UUID, so it cannot be found by its id"
    case "blob": return nil
    case "text" where StoredEntryID.key(ofText: text) != nil:
      return
        "its id is a UUID kept as text instead of its 16 bytes, so it cannot be found by its id"
    case "text": return nil
    default:
      return
        "its id is stored as \(type), neither text nor 16 bytes, so it cannot be found by its id"
    }
  }

  private func checkSettings(into report: inout CheckReport, rows: inout Int) throws {
    let hasStamps = try hasColumn("stamps", in: "setting")
    try database.makeStatement(
      sql: "SELECT key, value, \(hasStamps ? "stamps" : "''") FROM setting"
    ).forEachRow {
      row in
      let key: String = row[0]
      let place = "log: setting \(CheckText.shown(key))"
      report.count("settings")
      rows += 1
      // A key this lifelog does not know came from a newer one through sync: not damage.
      if let setting = Setting(rawValue: key), (try? setting.validated(row[1] as String)) == nil {
        report.add(
          place, "value",
          "its value \(CheckText.quoted(row[1] as String)) is not one lifelog accepts")
      }
      if let problem = CheckText.stampProblem(row[2], entity: .setting) {
        report.add(place, "stamp", problem)
      }
    }
  }

  /// Whether `table` has `column` (a log older than schema v2 has no stamps).
  public func hasColumn(_ column: String, in table: String) throws -> Bool {
    try database.makeStatement(sql: "SELECT 1 FROM pragma_table_info(?) WHERE name = ?").first([
      table, column,
    ]) {
      _ in true
    } ?? false
  }
}

/// How `lifelog check` shows values from a log or a remote that may be damaged or hostile.
public enum CheckText {
  /// At most `limit` characters of `text`, with control characters as `?`, so a damaged value can
  /// neither flood a line nor move the terminal's cursor.
  public static func shown(_ text: String, limit: Int = 40) -> String {
    printable(String(text.prefix(limit))) + (text.count > limit ? "…" : "")
  }

  /// `text` with every control character (C0, DEL and C1, which holds a one-byte CSI) as `?`.
  public static func printable(_ text: String) -> String {
    String(
      text.map {
        $0.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
          ? $0 : "?"
      })
  }

  public static func quoted(_ text: String) -> String { "'" + shown(text) + "'" }

  /// What is wrong with a row's `stamps` column, or nil when it is well formed: one stamp, or one
  /// per field of `entity`, each 28 lower-case hex digits or empty (never written).
  public static func stampProblem(_ text: String, entity: SyncedEntity) -> String? {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let fields = entity.fields.count
    guard parts.count == 1 || parts.count == fields else {
      return "it has \(parts.count) stamps for its \(fields) fields"
    }
    for part in parts where !part.isEmpty && !Stamp.isValid(String(part)) {
      return "its stamp \(quoted(String(part))) is not \(Stamp.length) lower-case hex digits"
    }
    return nil
  }
}
