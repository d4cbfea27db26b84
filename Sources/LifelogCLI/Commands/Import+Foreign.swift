import LifelogCore
import LifelogExchange

extension LifelogCommand.Import {
  /// The reader of the input: another tool's export (`--from`), else CSV or JSON Lines.
  func records(
    from input: ChunkedReader, store: LogStore, context: Context
  ) throws
    -> any ImportRecords
  {
    guard let source else {
      if let sheet = try sheetRecords(from: input, zone: context.timeParser.zone) {
        return sheet
      }
      return try (format ?? ExchangeFormat.detect(path: path, input: input)).records(from: input)
    }
    let foreign = ForeignImportContext(
      parser: context.timeParser, activity: activity, activities: try store.activities())
    return try source.records(from: input, path: path, context: foreign)
  }

  /// `--from` reads its own format; `--activity` only where every row is one sort.
  static func checkSource(
    _ source: ForeignSource?, activity: String?, format: ExchangeFormat?, sheet: SheetOptions
  ) throws(UsageError) {
    guard let source else {
      if format == .jsonl, activity != nil || sheet.areGiven {
        throw UsageError(
          "--activity, --map, --date-format, --separator and --encoding read a sheet; JSON "
            + "Lines names its own fields")
      }
      return
    }
    if sheet.areGiven {
      throw UsageError(
        "--map, --date-format, --separator and --encoding read your own sheet; --from "
          + "\(source.rawValue) reads that tool's own format")
    }
    if format != nil {
      throw UsageError(
        "--format and --from do not go together: --from \(source.rawValue) "
          + "reads that tool's own format")
    }
    if activity != nil, !source.takesActivity {
      throw UsageError(
        "--activity does not apply to --from \(source.rawValue), which says "
          + "itself where each entry goes")
    }
  }

  /// What the source held that was skipped on purpose: `Skipped 1 record:` and its lines.
  static func describeNotices(_ notices: [String]) -> String {
    let shown = notices.prefix(ImportSummary.listedErrorLimit)
    var text = "Skipped \(notices.count == 1 ? "1 record" : "\(notices.count) records"):\n"
    text += shown.map { "  \($0)\n" }.joined()
    if notices.count > shown.count { text += "  ... and \(notices.count - shown.count) more\n" }
    return text
  }
}

extension ForeignSource {
  static func parse(_ text: String) throws(UsageError) -> ForeignSource {
    guard let source = ForeignSource(rawValue: text.lowercased()) else {
      throw UsageError("Unknown source '\(text)'; use one of \(ForeignSource.list)")
    }
    return source
  }
}
