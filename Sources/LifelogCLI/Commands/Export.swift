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
        ExportFormat.option, EntryTimeRange.from, EntryTimeRange.to, output, LanguageChoice.option,
      ],
      examples: [
        "lifelog export > lifelog.csv",
        "lifelog export --format jsonl --from 2026-11-01 --to 2026-12-01 --output november.jsonl",
        "lifelog export --format ics --from 2026-01-01 --output 2026.ics",
        "lifelog export --format xlsx --from 2026-11-01 --output november.xlsx",
      ])

    static let output = OptionSpec(["--output"], value: "file", help: "Write to this file instead.")

    let format: any ExportWriter
    let from: LoggedTime?
    let to: LoggedTime?
    let outputPath: String?
    /// `--lang`, nil when not given: the language of a spreadsheet's header.
    let language: Language?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      format = try ExportFormat.parsing(arguments.value(ExportFormat.option))
      (from, to) = try arguments.timeRange(parser: context.timeParser)
      outputPath = arguments.value(Self.output)
      language = try LanguageChoice.parse(arguments)
      if format.needsFile && outputPath == nil { throw ExportFormat.needsOutput(format) }
      if let outputPath { try ReportFile.checkWritable(outputPath) }
    }

    func run(in context: Context) throws {
      let store = try context.store
      let file = try outputPath.map { path in try OutputFile(replacing: path) }
      let count = try format.write(
        ExportJob(
          store: store, from: from?.instant, to: to?.instant, file: file, language: language,
          context: context))
      guard let file else { return }
      context.output.write(
        "Exported \(count == 1 ? "1 entry" : "\(count) entries") to '\(file.path)'\n")
    }
  }
}
