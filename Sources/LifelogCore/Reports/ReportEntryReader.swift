/// Reads the entries of a report's range from the store a part at a time and hands them on one
/// by one, oldest first, so a report aggregates as it reads instead of holding the log.
///
/// An entry belongs to the report day of its own logged wall-clock time (see
/// ``ReportSettings/day(of:)``), so the log is read over a window of instants one day wider than
/// the range on each side (offsets reach ±18 hours); entries whose day is in the range are handed
/// on, and the last meal of the day before is kept for the first day's overnight gap.
public struct ReportEntryReader {
  /// How many entries are asked of SQLite per query unless told otherwise.
  public static let defaultPartEntries = 100_000
  /// The part sizes accepted (`LIFELOG_REPORT_PART_ENTRIES`, a test setting).
  public static let partEntriesRange = 1...1_000_000

  public let range: ReportRange
  public let settings: ReportSettings
  public let fields: ReportLog.Fields
  public let partEntries: Int
  private let store: LogStore

  /// - Parameter partEntries: entries per query, clamped to ``partEntriesRange``; the output
  ///   never depends on it.
  public init(
    store: LogStore, range: ReportRange, settings: ReportSettings, fields: ReportLog.Fields = .all,
    partEntries: Int = ReportEntryReader.defaultPartEntries
  ) {
    self.store = store
    self.range = range
    self.settings = settings
    self.fields = fields
    self.partEntries = min(
      max(partEntries, Self.partEntriesRange.lowerBound), Self.partEntriesRange.upperBound)
  }

  /// The same range read for other fields (a second pass in the same read transaction).
  public func reading(fields: ReportLog.Fields) -> ReportEntryReader {
    ReportEntryReader(
      store: store, range: range, settings: settings, fields: fields, partEntries: partEntries)
  }

  /// Runs `body` against one consistent snapshot of the log, so two passes over the range (the
  /// offsets first, then the days of a JSON report) read the same entries.
  public func reading<T>(_ body: () throws -> T) throws -> T { try store.reading(body) }

  /// The first and the last instant (exclusive) of the window read: from the start of the day
  /// before the range (for its last meal) and a day's margin for any offset on both sides.
  var window: (from: Int64, to: Int64) {
    let dayStart = Int64(settings.dayStartsAtMinutes * 60)
    return (
      (range.from.daysSinceEpoch - 2) * 86_400 + dayStart,
      (range.to.daysSinceEpoch + 2) * 86_400 + dayStart
    )
  }

  /// Calls `body` with every live entry whose report day is in the range, oldest first and
  /// entries at one instant by id (so every machine lists them alike), and returns the last meal
  /// of the day before the range.
  @discardableResult
  public func forEach(_ body: (consuming Entry) throws -> Void) throws -> Entry? {
    try forEach(mealsBefore: { _ in }, body)
  }

  /// The same, also calling `mealsBefore` with each meal of the day before the range as it is
  /// read, before any entry read after it is handed to `body` (``MealDayStream`` closes the
  /// first day as soon as that day is complete, long before the end).
  @discardableResult
  public func forEach(
    mealsBefore: (Entry) -> Void, _ body: (consuming Entry) throws -> Void
  ) throws -> Entry? {
    let (from, to) = window
    let scan = LogStore.ReportScan(from: from, to: to, fields: fields, partEntries: partEntries)
    var run = InstantRun()
    var mealBefore: Entry?
    let firstDay = range.from.daysSinceEpoch
    let lastDay = range.to.daysSinceEpoch
    try store.forEachReportEntry(scan) { entry in
      let day = settings.dayNumber(of: entry.time)
      if day >= firstDay && day <= lastDay {
        try run.add(entry, flushingTo: body)
      } else if day == firstDay - 1, entry.kind == .meal {
        mealsBefore(entry)
        if mealBefore.map({ ReportLog.precedes($0, entry) }) ?? true { mealBefore = entry }
      }
    }
    try run.flush(to: body)
    return mealBefore
  }
}

/// The entries of one instant, held until an entry of a later instant arrives.
///
/// They are then handed on sorted by id: the store gives entries at one instant by rowid, and such a run may straddle two
/// parts. Without ids (all empty) the stable sort keeps the rowid order.
private struct InstantRun {
  private var entries: [Entry] = []

  mutating func add(
    _ entry: consuming Entry, flushingTo body: (consuming Entry) throws -> Void
  )
    throws
  {
    if let first = entries.first, first.time.instant != entry.time.instant {
      try flush(to: body)
    }
    entries.append(entry)
  }

  mutating func flush(to body: (consuming Entry) throws -> Void) throws {
    // Nearly every instant holds one entry: moved out, not copied.
    if entries.count == 1 { return try body(entries.removeLast()) }
    if entries.count > 1 { entries.sort(by: ReportLog.precedes) }
    for entry in entries { try body(entry) }
    entries.removeAll(keepingCapacity: true)
  }
}
