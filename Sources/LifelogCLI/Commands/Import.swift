@preconcurrency import Glibc
import LifelogCore
import LifelogExchange

extension LifelogCommand {
  /// `lifelog import`: entries from a CSV or JSON Lines file, all or nothing.
  struct Import: Command {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Import entries from a CSV or JSON Lines file, or another tool's export.",
      discussion: """
        CSV needs a header row naming its columns, from: id, at, activity, kind, duration, note,
        quantity, unit, tags (only at and activity are required; tags are separated by ';').
        A sheet with other columns (a CSV as a spreadsheet saves it) is read through --map,
        which says which column holds what; without it, lifelog proposes a mapping from the
        columns' contents (exit 65). --dry-run shows the first rows as they would be imported.
        JSON Lines holds one object per line, as 'lifelog export --format jsonl' writes. A row with
        an id creates or updates that entry; a row without one gets an id derived from its
        content, so importing a file twice adds nothing. If any row is invalid, nothing is
        imported and the rows are listed with their line numbers (exit 65).
        --from reads another tool's export instead (docs/import.md): timewarrior ('timew
        export'), watson ('watson log --json' or its frames file), jrnl ('jrnl --export json'),
        cronometer (the servings CSV) or apple-health (export.xml, or the export.zip holding it).
        Each entry's id comes from the source record, so importing a newer export adds only what
        is new.
        """,
      arguments: [file],
      options: [format.spec, from, activity, dryRun, skipInvalid, kind] + SheetOptions.specs,
      examples: [
        "lifelog import meals.csv --dry-run",
        "lifelog import dziennik.xlsx --map at=Data+Godzina --map activity=Posiłek "
          + "--map note=\"Co zjadłem\" --kind meal",
        "timew export | lifelog import --from timewarrior -",
        "lifelog import --from apple-health ~/Downloads/export.zip",
        "lifelog export --format jsonl | ssh other-machine lifelog import - --format jsonl",
      ])

    static let file = ArgumentSpec(
      "file", "The file to read, or - for standard input.", .optional)
    static let format = ChoiceOption(
      ["--format"], value: "format", help: "csv or jsonl.", default: "from the name or content",
      choices: ExchangeFormat.allCases)
    static let from = OptionSpec(
      ["--from"], value: "source", help: "Read another tool's export: \(ForeignSource.list).",
      completes: .choices(ForeignSource.allCases.map(\.rawValue)))
    static let activity = OptionSpec(
      ["--activity"], value: "name",
      help: "Put every entry under this activity: a sheet without an activity column, or "
        + "--from timewarrior, watson or jrnl.",
      completes: .activityName)
    static let dryRun = OptionSpec(
      ["--dry-run"], help: "Report what would be added and updated; write nothing.")
    static let skipInvalid = OptionSpec(
      ["--skip-invalid"], help: "Import the valid rows and list the invalid ones.")
    static let kind = OptionSpec(
      ["--kind"], value: "kind",
      help: "Kind of new activities whose rows give none (without it, such rows are refused).")

    let path: String?
    /// Whether a file (or `-`) was named; without one, standard input is read unless it is a terminal.
    let fileNamed: Bool
    let format: ExchangeFormat?
    let dryRun: Bool
    let skipInvalid: Bool
    let kind: ActivityKind?
    let source: ForeignSource?
    let activity: String?
    let sheet: SheetOptions

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let named = try arguments.checkedPositionals(for: Self.configuration).value(Self.file)
      fileNamed = named != nil
      path = named == "-" ? nil : named
      format = try arguments.choice(Self.format)
      dryRun = arguments.flag(Self.dryRun)
      skipInvalid = arguments.flag(Self.skipInvalid)
      kind = try arguments.value(Self.kind).map(ActivityKind.init(parsing:))
      source = try arguments.value(Self.from).map(ForeignSource.parse)
      activity = try arguments.value(Self.activity).map(ActivityName.validated)
      sheet = try SheetOptions(arguments)
      try Self.checkSource(source, activity: activity, format: format, sheet: sheet)
    }

    func run(in context: Context) throws {
      if !fileNamed, context.errors is FileOutput, isatty(STDIN_FILENO) == 1 {
        throw UsageError(
          "Missing file to import; name one, or pipe the rows in ('lifelog import - < rows.csv')")
      }
      let started = Seconds.monotonic()
      let input =
        try path.map { path throws(InputFileError) in try ChunkedReader(path: path) }
        ?? ChunkedReader(descriptor: STDIN_FILENO, closing: false)
      var options = ImportOptions(parser: context.timeParser)
      options.defaultKind = kind
      options.dryRun = dryRun
      options.skipInvalid = skipInvalid
      options.source =
        path.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "stdin"
      let progress = ImportProgress(context: context)
      let summary: ImportSummary
      var numberedBy = "line"
      do {
        let store = try context.store
        let name = path ?? "standard input"
        let records = try self.records(from: input, store: store, context: context)
        if let sheet = records as? SheetImportRecords { numberedBy = sheet.table.numberedBy }
        if dryRun, let sheet = records as? SheetImportRecords {
          context.output.write(Self.preview(sheet, parser: context.timeParser))
        }
        summary = try store.recordingUndoStep({
          "import \(name): \($0.added) added, \($0.updated) updated"
        }) {
          try store.importEntries(
            from: records, options: options, progress: progress.show)
        }
        if let notes = (records as? any ForeignRecords)?.notices, !notes.isEmpty {
          context.errors.write(Self.describeNotices(notes))
        }
      } catch let error as ImportError {
        progress.clear()
        throw InputError(
          Self.describeInvalid(
            error.summary, name: path ?? "standard input", numberedBy: numberedBy))
      }
      progress.clear()
      if summary.invalidCount > 0 {
        context.errors.write(
          "Skipped \(Self.rows(summary.invalidCount)):\n"
            + Self.list(summary, numberedBy: numberedBy))
      }
      context.output.write(
        Self.describe(summary, seconds: Seconds.monotonic() - started, dryRun: dryRun))
    }

    /// `3 added, 1 updated, 0 unchanged, 0 skipped in 0.02 s`, and the activities it created.
    static func describe(_ summary: ImportSummary, seconds: Double, dryRun: Bool) -> String {
      var text = dryRun ? "Dry run, nothing written: would add" : "Imported:"
      text +=
        dryRun
        ? " \(summary.added), update \(summary.updated), leave \(summary.unchanged) unchanged, "
          + "skip \(summary.invalidCount)"
        : " \(summary.added) added, \(summary.updated) updated, \(summary.unchanged) unchanged, "
          + "\(summary.invalidCount) skipped"
      text += " in \(Seconds.text(seconds)) s\n"
      if !summary.createdActivities.isEmpty {
        text += (dryRun ? "Would create" : "Created") + " activities: "
        text += summary.createdActivities.map { "\($0.name) (\($0.kind.rawValue))" }.joined(
          separator: ", ")
        text += "\n"
      }
      return text
    }

    static func describeInvalid(
      _ summary: ImportSummary, name: String, numberedBy: String = "line"
    ) -> String {
      "\(rows(summary.invalidCount).capitalizedFirst) of '\(name)' \(summary.invalidCount == 1 ? "is" : "are") "
        + "invalid, so nothing was imported; fix \(summary.invalidCount == 1 ? "it" : "them"), "
        + "or pass --skip-invalid to import the other rows:\n"
        + list(summary, numberedBy: numberedBy).dropLast()
    }

    /// The listed invalid rows, one per line (`line 4: ...`, or `row 4: ...` in a spreadsheet),
    /// and how many more there are.
    static func list(_ summary: ImportSummary, numberedBy: String = "line") -> String {
      var text = summary.invalidRows.map { "  \(numberedBy) \($0.line): \($0.message)\n" }.joined()
      let more = summary.invalidCount - summary.invalidRows.count
      if more > 0 { text += "  ... and \(rows(more)) more\n" }
      return text
    }

    static func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }
  }
}

/// The progress line a long import (or check) shows on standard error, only when that is a terminal.
final class ImportProgress {
  private let errors: (any TextOutput)?
  private var shown = false
  private var lastShown = 0.0
  /// The line for a count: `Importing... 12000 rows read`.
  var label: (Int) -> String = { "Importing... \($0) rows read" }

  init(context: Context) {
    errors = context.errors is FileOutput && isatty(STDERR_FILENO) == 1 ? context.errors : nil
  }

  func show(_ rows: Int) {
    guard let errors else { return }
    let now = Seconds.monotonic()
    guard now - lastShown >= 0.2 else { return }  // a few updates a second are enough to read
    lastShown = now
    errors.write("\r\u{1B}[K" + label(rows))
    errors.flush()
    shown = true
  }

  func clear() {
    guard shown, let errors else { return }
    errors.write("\r\u{1B}[K")
    errors.flush()
  }
}

/// Wall-clock seconds for the import summary.
enum Seconds {
  static func monotonic() -> Double { SystemClock.monotonicSeconds() }

  /// Two decimals, without Foundation.
  static func text(_ seconds: Double) -> String {
    TextBytes.string { $0.fixed(seconds, decimals: 2) }
  }
}
