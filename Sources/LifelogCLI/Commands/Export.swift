import LifelogCore

extension LifelogCommand {
  /// `lifelog export`: every live entry (or a range) as CSV or JSON Lines, for `import` to read.
  struct Export: Command {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Export entries as CSV or JSON Lines.",
      discussion: """
        CSV has the columns id, at, activity, kind, duration, note, quantity, unit, tags (duration
        in seconds, tags separated by ';', at in ISO 8601 with the offset it was logged at); JSON
        Lines has one object per entry, as 'list --format json' writes them. Importing an export
        into an empty log and exporting again gives the same bytes.
        """,
      options: [
        OptionSpec(
          ["--format"], value: "format", help: "csv or jsonl.", default: "csv",
          completes: .choices(["csv", "jsonl"])),
        OptionSpec(["--from"], value: "time", help: "Only entries at or after this time or day."),
        OptionSpec(["--to"], value: "time", help: "Only entries before this time or day."),
        OptionSpec(["--output"], value: "file", help: "Write to this file instead."),
      ],
      examples: [
        "lifelog export > lifelog.csv",
        "lifelog export --format jsonl --from 2026-11-01 --to 2026-12-01 --output november.jsonl",
      ])

    let format: ExchangeFormat
    let from: LoggedTime?
    let to: LoggedTime?
    let outputPath: String?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      format = try ExchangeFormat.parse(arguments.choice("--format") ?? "")
      (from, to) = try arguments.timeRange(parser: context.timeParser)
      outputPath = arguments.value("--output")
      if let outputPath { try ReportFile.checkWritable(outputPath) }
    }

    func run(in context: Context) throws {
      let store = try context.store
      let file = try outputPath.map { path throws(InputError) in try OutputFile(replacing: path) }
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
        count = try exportJSONLines(store, zone: context.zone, sink: sink)
      }
      guard let file else { return }
      try file.commit()
      context.output.write(
        "Exported \(count == 1 ? "1 entry" : "\(count) entries") to '\(file.path)'\n")
    }

    /// One `list --format json` object per line.
    private func exportJSONLines(
      _ store: LogStore, zone: any TimeZoneRules, sink: ([UInt8]) throws -> Void
    ) throws -> Int {
      let presenter = EntryPresenter(zone: zone)
      var buffer: [UInt8] = []
      buffer.reserveCapacity(1 << 20)
      var count = 0
      try store.forEachEntry(EntryQuery(from: from?.instant, to: to?.instant)) { entry in
        buffer.append(contentsOf: presenter.json(entry).utf8)
        buffer.append(0x0A)
        count += 1
        if buffer.count >= 1 << 20 {
          try sink(buffer)
          buffer.removeAll(keepingCapacity: true)
        }
      }
      try sink(buffer)
      return count
    }
  }
}
