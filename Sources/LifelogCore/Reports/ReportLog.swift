/// The entries a report covers, read once and shared by the meal and activity reports.
///
/// An entry belongs to the report day of its own logged wall-clock time (see
/// ``ReportSettings/day(of:)``), so the log is read over a window of instants one day wider than
/// the range on each side (offsets reach ±18 hours) and each entry is kept when its day is in the
/// range.
public struct ReportLog: Sendable {
  public let range: ReportRange
  public let settings: ReportSettings
  /// The entries whose report day is in the range, oldest first.
  public private(set) var entries: [Entry] = []
  /// The last meal of the day before the range, for the first day's overnight gap.
  public private(set) var mealBefore: Entry?

  /// Keeps the entries of `candidates` that belong in the range.
  public init(
    range: ReportRange, settings: ReportSettings, entries candidates: some Sequence<Entry>
  ) {
    self.range = range
    self.settings = settings
    for entry in candidates { add(entry) }
    if zip(entries, entries.dropFirst()).contains(where: { ReportLog.precedes($1, $0) }) {
      entries.sort(by: ReportLog.precedes)
    }
  }

  private init(range: ReportRange, settings: ReportSettings) {
    self.range = range
    self.settings = settings
  }

  /// Which optional fields of the entries to read (the others are always read).
  public struct Fields: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Entry ids (JSON and CSV show them); without it every ``Entry/id`` is empty.
    public static let ids = Fields(rawValue: 1)
    /// Notes (the full reports show them); without it every ``Entry/note`` is nil.
    public static let notes = Fields(rawValue: 2)
    public static let all: Fields = [.ids, .notes]
  }

  /// Reads the live entries of `range` from `store` (through ``ReportEntryReader``) and holds
  /// them all: for tests and for the one output that lists every entry (CSV of all kinds); the
  /// reports themselves aggregate as they read (``ReportAggregator``).
  ///
  /// Entries never carry tags or source (no report shows them); ids and notes only when `fields`
  /// asks for them, since reading 100,000 of each is a good part of a large report's time.
  public static func read(
    from store: LogStore, range: ReportRange, settings: ReportSettings, fields: Fields = .all,
    partEntries: Int = ReportEntryReader.defaultPartEntries
  ) throws -> ReportLog {
    var log = ReportLog(range: range, settings: settings)
    let reader = ReportEntryReader(
      store: store, range: range, settings: settings, fields: fields, partEntries: partEntries)
    let window = reader.window
    log.entries.reserveCapacity(
      try store.reportEntryEstimate(from: window.from, to: window.to).inWindow)
    log.mealBefore = try reader.forEach { log.entries.append($0) }
    return log
  }

  /// Oldest first; entries at the same instant by id, so every machine lists them alike.
  static func precedes(_ first: Entry, _ second: Entry) -> Bool {
    (first.time.instant, first.id) < (second.time.instant, second.id)
  }

  private mutating func add(_ entry: consuming Entry) {
    let day = settings.dayNumber(of: entry.time)
    if day >= range.from.daysSinceEpoch && day <= range.to.daysSinceEpoch {
      entries.append(entry)
    } else if day == range.from.daysSinceEpoch - 1, entry.kind == .meal {
      if mealBefore.map({ ReportLog.precedes($0, entry) }) ?? true { mealBefore = entry }
    }
  }
}
