import LifelogCore

extension LifelogCommand {
  /// `lifelog export`: every live entry (or a range) as CSV or JSON Lines, for `import` to read,
  /// or as an iCalendar file for a calendar app.
  struct Export: Command {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Export entries as CSV, JSON Lines, iCalendar or an Excel spreadsheet.",
      discussion: """
        CSV has the columns id, at, activity, kind, duration, note, quantity, unit, tags (duration
        in seconds, tags separated by ';', at in ISO 8601 with the offset it was logged at); JSON
        Lines has one object per entry, as 'list --format json' writes them. Importing an export
        into an empty log and exporting again gives the same bytes. ics is an iCalendar file
        (RFC 5545) for calendar apps, one event per entry with the entry's id as its UID, so
        importing a newer export into a calendar updates the events instead of adding them again
        (deleted entries are left out, as in the other formats); 'import' does not read it.
        A CSV text field that begins with =, +, -, @, a tab or a line break is quoted and starts
        with ' (so a spreadsheet never runs it as a formula); 'import' takes the ' off again.
        xlsx (needs --output) is one sheet for a spreadsheet app, a row per entry: the date and
        time as logged in a date cell, the offset beside it, durations as time cells, every text
        a string cell, the header frozen with an autofilter; --lang sets the header's language.
        """,
      options: [
        format.spec, EntryTimeRange.from, EntryTimeRange.to, output, LanguageChoice.option,
      ],
      examples: [
        "lifelog export > lifelog.csv",
        "lifelog export --format jsonl --from 2026-11-01 --to 2026-12-01 --output november.jsonl",
        "lifelog export --format ics --from 2026-01-01 --output 2026.ics",
        "lifelog export --format xlsx --from 2026-11-01 --output november.xlsx",
      ])

    static let format = ChoiceOption(
      ["--format"], value: "format", help: "csv, jsonl, ics or xlsx.", default: "csv",
      choices: ExportFormat.allCases)
    static let output = OptionSpec(["--output"], value: "file", help: "Write to this file instead.")

    let format: ExportFormat
    let from: LoggedTime?
    let to: LoggedTime?
    let outputPath: String?
    /// `--lang`, nil when not given: the language of a spreadsheet's header.
    let language: Language?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      format = try arguments.choice(Self.format) ?? .csv
      (from, to) = try arguments.timeRange(parser: context.timeParser)
      outputPath = arguments.value(Self.output)
      language = try LanguageChoice.parse(arguments)
      if format == .xlsx && outputPath == nil {
        throw UsageError(
          "An xlsx export is a file, not text for a terminal: give --output FILE, such as 'lifelog.xlsx'"
        )
      }
      if let outputPath { try ReportFile.checkWritable(outputPath) }
    }

    func run(in context: Context) throws {
      let store = try context.store
      let file = try outputPath.map { path in try OutputFile(replacing: path) }
      if format == .xlsx, let file {
        return try exportSpreadsheet(store, to: file, in: context)
      }
      let sink: ([UInt8]) throws -> Void = { bytes in
        if let file {
          try file.write(bytes)
        } else {
          context.output.write(String(decoding: bytes, as: UTF8.self))
        }
      }
      let count: Int
      switch format {
      case .csv:
        count = try store.exportCSV(from: from?.instant, to: to?.instant, flush: sink)
      case .jsonl:
        count = try store.exportJSONLines(from: from?.instant, to: to?.instant, flush: sink)
      case .ics:
        count = try store.exportCalendar(
          from: from?.instant, to: to?.instant, now: context.now, flush: sink)
      case .xlsx: return  // a file only, written by exportSpreadsheet(_:to:in:)
      }
      guard let file else { return }
      try file.commit()
      context.output.write(
        "Exported \(count == 1 ? "1 entry" : "\(count) entries") to '\(file.path)'\n")
    }

    /// Every entry as a row of a spreadsheet (``EntrySpreadsheet``), written to `file`.
    private func exportSpreadsheet(
      _ store: LogStore, to file: OutputFile, in context: Context
    )
      throws
    {
      let language = LanguageChoice.resolve(
        language, setting: try store.value(of: .language), in: context)
      let book = try SpreadsheetBook(replacing: file, streaming: true)
      var count = 0
      try Translation.$current.withValue(language.translation) {
        let sheet = try EntrySpreadsheet(book: book)
        try store.forEachEntry(EntryQuery(from: from?.instant, to: to?.instant)) { entry in
          sheet.add(entry)
          count += 1
        }
      }
      try book.commit()
      context.output.write(
        "Exported \(count == 1 ? "1 entry" : "\(count) entries") to '\(file.path)'\n")
    }
  }
}

/// What `export --format` writes: the two formats `import` reads back, iCalendar, and a
/// spreadsheet.
enum ExportFormat: String, CaseIterable {
  case csv, jsonl, ics, xlsx
}
