import Foundation
import LifelogCore
import LifelogExchange
import LifelogTestSupport
import Testing

/// A real log file in a temporary folder, and the importer run on real files in process: what
/// `lifelog import` does, without the command line.
///
/// The clock is fixed (2026-12-10 12:00 UTC) and the zone is +01:00, so times read without an
/// offset (jrnl's, a sheet's) are on that clock.
final class ImportHarness {
  let folder = TemporaryDirectory(prefix: "lifelog-exchange")
  let store: LogStore
  static let now: Int64 = 1_796_904_000
  let parser = TimeParser(now: ImportHarness.now, zone: FixedOffsetZone(seconds: 3600))

  /// Tests/LifelogEndToEndTests/Fixtures, where the sample exports of other tools are kept.
  static let fixtures =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("LifelogEndToEndTests/Fixtures").path

  init(name: String = "log.db") throws {
    store = try LogStore(path: folder.file(name))
  }

  /// Writes `text` to a file of the folder and returns its path.
  func write(_ text: String, to name: String) throws -> String {
    let path = folder.file(name)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// What `import` is told: this harness's clock, and `--kind` for new activities.
  func options(kind: ActivityKind?) -> ImportOptions {
    var options = ImportOptions(parser: parser)
    options.defaultKind = kind
    return options
  }

  /// Imports the rows `records` reads from the file at `path`; a new activity gets `kind`.
  @discardableResult
  func importFile(
    _ path: String, kind: ActivityKind? = .other,
    _ records: (ChunkedReader) throws -> any ImportRecords
  ) throws -> ImportSummary {
    let input = try ChunkedReader(path: path)
    return try store.importEntries(from: try records(input), options: options(kind: kind))
  }

  /// Imports lifelog's own CSV or JSON Lines, the format told by the file's name or first byte.
  @discardableResult
  func importOwn(_ path: String) throws -> ImportSummary {
    try importFile(path, kind: nil) { input in
      try ExchangeFormat.detect(path: path, input: input).records(from: input)
    }
  }

  /// Imports another tool's export.
  @discardableResult
  func importForeign(
    _ source: ForeignSource, _ path: String, activity: String? = nil
  ) throws -> ImportSummary {
    let activities = try store.activities()
    let context = ForeignImportContext(parser: parser, activity: activity, activities: activities)
    return try importFile(path) { input in
      try source.records(from: input, path: path, context: context)
    }
  }

  /// Imports a sheet already read into a table.
  @discardableResult
  func importSheet(_ table: SheetTable, map: [String] = []) throws -> ImportSummary {
    var settings = SheetImportSettings()
    settings.mapping = try SheetMapping(parsing: map)
    settings.zone = parser.zone
    let records = try SheetImportRecords(table: table, settings: settings)
    return try store.importEntries(from: records, options: options(kind: .meal))
  }

  /// Every live entry, oldest first.
  func entries() throws -> [Entry] { try store.entries(EntryQuery()) }

  /// The log exported in `format`'s bytes.
  func export(_ format: ExchangeFormat) throws -> [UInt8] {
    var bytes: [UInt8] = []
    switch format {
    case .csv: try store.exportCSV { bytes += $0 }
    case .jsonl: try store.exportJSONLines { bytes += $0 }
    }
    return bytes
  }

  /// Runs `/usr/bin/python3 -c script` in the folder (its standard library only).
  func python(_ script: String) throws {
    let made = try ToolProcess.output(
      "/usr/bin/python3",
      ["-c", "import os\nos.chdir(\(String(reflecting: folder.path)))\n" + script])
    try #require(made.status == 0, "\(made.text)")
  }
}
