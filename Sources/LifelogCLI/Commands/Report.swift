import LifelogCore

extension LifelogCommand {
  /// `lifelog report`: alone, both reports for the last seven days, compact.
  struct ReportGroup: Command {
    static let configuration = CommandConfiguration(
      commandName: "report",
      abstract: "Report meal gaps and activity totals against targets.",
      discussion: """
        'lifelog report' alone shows both reports, compact: a line per day of meals, then activity
        totals. Days run from --from to --to, both inclusive (default: the last 7 days, today
        included) and begin at the dayStartsAt setting, on the clock where each entry was logged.
        """,
      options: ReportRequest.options(grouping: true),
      examples: [
        "lifelog report",
        "lifelog report meals --from 2026-11-01 --to 2026-11-30 --format md --output november.md",
        "lifelog report activity --by month --from 2026-01-01",
      ],
      subcommands: [ReportMeals.self, ReportActivity.self])

    let request: ReportRequest

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      request = try ReportRequest(
        arguments, kind: .both, configuration: Self.configuration, context: context)
    }

    func run(in context: Context) throws { try request.run(in: context) }
  }

  /// `lifelog report meals`: the meal diary.
  struct ReportMeals: Command {
    static let configuration = CommandConfiguration(
      commandName: "meals",
      abstract: "Show every meal by day, the gaps between them, and a summary.",
      discussion: """
        Each day lists its meals at the time they were logged, with the gap since the meal before;
        gaps longer than the mealGapHours setting are flagged with '!', gaps shorter than
        mealGapMinHours with '<' (HTML and Markdown grade each: a bit, or far when an hour or more
        outside). The overnight gap (from the day before's last meal) is shown apart and never
        flagged. The summary gives meals per day,
        the median and longest gap, the typical first and last meal, and the days with no flagged
        gap.
        """,
      options: ReportRequest.options(grouping: false),
      examples: [
        "lifelog report meals",
        "lifelog report meals --from mon",
        "lifelog report meals --from 2026-11-01 --to 2026-11-30 --format csv > november.csv",
      ])

    let request: ReportRequest

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      request = try ReportRequest(
        arguments, kind: .meals, configuration: Self.configuration, context: context)
    }

    func run(in context: Context) throws { try request.run(in: context) }
  }

  /// `lifelog report activity`: totals per activity and period, and sleep per night.
  struct ReportActivity: Command {
    static let configuration = CommandConfiguration(
      commandName: "activity",
      abstract: "Show activity totals per period against their targets, and sleep per night.",
      discussion: """
        For each activity: how many entries, their total duration and quantity, and the share of
        its target reached (a target is spread evenly over its days, so a week cut short by the
        range expects less). Sleep is shown per night; a night belongs to the day it begins in.
        """,
      options: ReportRequest.options(grouping: true),
      examples: [
        "lifelog report activity",
        "lifelog report activity --by day --from yesterday",
        "lifelog report activity --by month --from 2026-01-01 --to 2026-06-30 --format json",
      ])

    let request: ReportRequest

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      request = try ReportRequest(
        arguments, kind: .activity, configuration: Self.configuration, context: context)
    }

    func run(in context: Context) throws { try request.run(in: context) }
  }
}

/// A report as asked for on the command line, read and checked before anything runs.
struct ReportRequest: Sendable {
  let kind: ReportKind
  let from: CivilDate?
  let to: CivilDate?
  let grouping: Target.Period
  let format: ReportFormat
  let outputPath: String?
  /// `--lang`, nil when not given.
  let language: Language?
  /// `--paper`, nil when not given (the locale's).
  let paper: Paper?

  /// A day as `--from` and `--to` take it: what ``TimeParser/parseDay(_:)`` reads, or days or
  /// weeks back from today, as `add --at` takes times back (`-14d`, `-2w`).
  static func day(_ text: String, parser: TimeParser) throws -> CivilDate {
    guard text.hasPrefix("-") else { return try parser.parseDay(text) }
    return parser.today.adding(days: -(try days(inSpan: String(text.dropFirst()))))
  }

  /// The days in a span of whole days or weeks: `14d`, `2w`, `3 weeks` (at most 100 years).
  static func days(inSpan text: String) throws(InputError) -> Int {
    let span = text.lowercased().trimmingSpaces()
    let digits = span.prefix { $0.isASCII && $0.isNumber }
    let unit = String(span.dropFirst(digits.count)).trimmingSpaces()
    guard digits.count <= 5, let count = Int(digits), count > 0 else {
      throw InputError("Cannot read '\(text)' as days or weeks; write it as '14d' or '2w'")
    }
    let days: Int
    switch unit {
    case "d", "day", "days": days = count
    case "w", "wk", "week", "weeks": days = count * 7
    default: throw InputError("Cannot read '\(text)' as days or weeks; write it as '14d' or '2w'")
    }
    guard days <= 36_600 else {
      throw InputError("'\(text)' reaches back more than 100 years; give a shorter span")
    }
    return days
  }

  /// How many days the default range covers, today included.
  static let defaultDays = 7

  static func options(grouping: Bool) -> [OptionSpec] {
    var options = [
      OptionSpec(
        ["--from"], value: "day",
        help: "First day of the report (YYYY-MM-DD, today, yesterday, mon, -14d, -2w).",
        default: "6 days before --to"),
      OptionSpec(
        ["--to"], value: "day", help: "Last day of the report, included.", default: "today"),
      OptionSpec(
        ["--last"], value: "span", help: "The last days or weeks, today included: 14d, 2w."),
    ]
    if grouping {
      options.append(
        OptionSpec(
          ["--by"], value: "period", help: "Activity totals per day, week or month.",
          default: "week", completes: .choices(["day", "week", "month"])))
    }
    options.append(
      OptionSpec.format(["text", "md", "csv", "json", "html", "pdf", "xlsx"]))
    options.append(
      OptionSpec(["--output"], value: "file", help: "Write the report to this file instead."))
    options.append(LanguageChoice.option)
    options.append(
      OptionSpec(
        ["--paper"], value: "size", help: "Paper of a PDF report: a4 or letter.",
        default: "letter in the US and Canada, else a4", completes: .choices(["a4", "letter"])))
    return options
  }

  init(
    _ arguments: ParsedArguments, kind: ReportKind, configuration: CommandConfiguration,
    context: Context
  ) throws {
    _ = try arguments.checkedPositionals(for: configuration)
    self.kind = kind
    format = try ReportFormat(parsing: arguments.value("--format"))
    let parser = context.timeParser
    let to = try arguments.value("--to").map { try Self.day($0, parser: parser) }
    if let span = arguments.value("--last") {
      guard arguments.value("--from") == nil else {
        throw UsageError("Give either --last or --from, not both")
      }
      let days = try Self.days(inSpan: span)
      from = (to ?? parser.today).adding(days: 1 - days)
    } else {
      from = try arguments.value("--from").map { try Self.day($0, parser: parser) }
    }
    self.to = to
    if let from, let to { _ = try ReportRange(from: from, to: to) }
    switch arguments.valueIfDeclared("--by")?.lowercased() {
    case nil, "week", "weekly", "w": grouping = .week
    case "day", "daily", "d": grouping = .day
    case "month", "monthly", "m": grouping = .month
    case let other?: throw UsageError("Unknown period '\(other)' for --by; use day, week or month")
    }
    outputPath = arguments.value("--output")
    language = try LanguageChoice.parse(arguments)
    paper = try arguments.value("--paper").map(Paper.init(parsing:))
    if format == .pdf {
      guard outputPath != nil else {
        throw UsageError("A PDF report needs a file: give --output FILE, such as 'meals.pdf'")
      }
    }
    if format == .xlsx {
      guard kind != .activity else {
        throw UsageError(
          "A spreadsheet report is the meal report; use 'lifelog report meals --format xlsx'")
      }
      guard outputPath != nil else {
        throw UsageError(
          "A spreadsheet report is a file, not text for a terminal: give --output FILE, such as 'meals.xlsx'"
        )
      }
    }
  }

  /// The days to report on: --from and --to, or the week that ends today (the report day under
  /// way, so at 01:30 with days starting at 04:00, still yesterday).
  func range(settings: ReportSettings, context: Context) throws(InputError) -> ReportRange {
    let today = settings.day(of: context.zone.loggedTime(at: context.now))
    switch (from, to) {
    case let (from?, to?): return try ReportRange(from: from, to: to)
    case let (nil, to?): return try ReportRange(from: to.adding(days: 1 - Self.defaultDays), to: to)
    case let (from?, nil):
      guard from <= today else {
        throw InputError(
          "--from (\(from)) is after today (\(today)); give --to as well to report on future days")
      }
      return try ReportRange(from: from, to: today)
    case (nil, nil): return ReportRange.week(endingOn: today)
    }
  }

  func run(in context: Context) throws {
    if let outputPath { try ReportFile.checkWritable(outputPath) }
    let store = try context.store
    try LifelogCommand.Settings.warnAboutIgnoredValues(in: store, context: context)
    let language = LanguageChoice.resolve(
      language, setting: try store.value(of: .language), in: context)
    try Translation.$current.withValue(language.translation) {
      try run(store: store, in: context)
    }
  }

  private func run(store: LogStore, in context: Context) throws {
    var settings = try store.reportSettings()
    settings.today = settings.day(of: context.zone.loggedTime(at: context.now))
    let range = try range(settings: settings, context: context)
    let reader = ReportEntryReader(
      store: store, range: range, settings: settings, fields: fields,
      partEntries: try Self.partEntries(in: context))
    if format == .pdf, let outputPath {
      return try writePDF(reader, store: store, to: outputPath, context: context)
    }
    if format == .xlsx, let outputPath {
      return try writeSpreadsheet(reader, to: outputPath, context: context)
    }
    let file = try outputPath.map { path in try OutputFile(replacing: path) }
    let sink = ReportSink(output: context.output, file: file)
    if streamsDays {
      try reader.reading { try stream(reader, store: store, to: sink, zone: context.zone) }
    } else {
      let request = ReportAggregator.Request(
        meals: kind != .activity, activities: kind != .meals ? try store.activities() : nil,
        grouping: grouping)
      let content = ReportContent(
        kind: kind, built: try ReportAggregator.build(request, from: reader, zone: context.zone))
      let style = ReportStyle(colour: outputPath == nil && context.usesColor)
      render(content, style: style) { sink.write($0) }
    }
    try sink.finish()
    guard let outputPath else { return }
    context.output.write(Self.wrote(kind, range: range, path: outputPath) + "\n")
  }

  /// Whether the output can be written a day at a time as the days close (CSV, JSON with the
  /// meal diary, the diary in Markdown), holding a few days instead of the diary.
  ///
  /// The diary as text (its columns line up over all days) and as HTML (its summary comes
  /// first) need the whole diary; the compact and activity reports are small.
  private var streamsDays: Bool {
    switch format {
    case .csv: return true
    case .json: return kind != .activity
    case .md: return kind == .meals
    case .text, .html, .pdf, .xlsx: return false
    }
  }

  /// Writes a CSV report, a JSON report with the meal diary, or the diary in Markdown, as the
  /// days close.
  ///
  /// The days come from ``ReportAggregator/stream(_:from:zone:day:)``. JSON names the offsets
  /// before the days, so they are read in a pass of their own first, in the same read
  /// transaction.
  private func stream(
    _ reader: ReportEntryReader, store: LogStore, to sink: ReportSink, zone: any TimeZoneRules
  ) throws {
    if format == .md {
      let markdown = ReportMarkdown(
        content: .init(kind: kind, range: reader.range, settings: reader.settings))
      let request = ReportAggregator.Request(meals: true, activities: nil, grouping: grouping)
      // The summary goes first, where a reader looks; it is known only once every day is read,
      // so the days are read twice (in one read transaction, so both passes see the same log),
      // which keeps the memory of one day instead of holding the whole diary.
      var first = request
      first.countsSheet = true
      let counted = try ReportAggregator.stream(first, from: reader, zone: zone) { _ in }
      sink.write(markdown.mealsHeading())
      if let sheet = counted.sheet {
        sink.write(
          markdown.mealsSheet(
            MealSheetText(
              range: reader.range, settings: reader.settings, summary: counted.summary,
              sheet: sheet)))
      }
      sink.write(markdown.mealsSummary(counted.summary, offsets: counted.offsets))
      sink.write("\n## " + Translation.current("Days") + "\n")
      _ = try ReportAggregator.stream(request, from: reader, zone: zone) { day in
        sink.write { $0.append(markdown.mealDay(day)) }
      }
      return
    }
    guard format == .json else {
      let csv = ReportCSV(kind: kind)
      sink.write { csv.header(&$0) }
      let request = ReportAggregator.Request(
        meals: true, activities: nil, grouping: grouping, keepsEntries: kind != .meals)
      _ = try ReportAggregator.stream(request, from: reader, zone: zone) { day in
        sink.write { csv.day(day, &$0) }
      }
      return
    }
    let json = ReportJSON()
    let offsets = try ReportAggregator.offsets(from: reader, zone: zone)
    if kind == .both {
      var object = JSONObjectWriter()
      object.add("from", reader.range.from.description)
      object.add("to", reader.range.to.description)
      object.addRaw("meals", "\n")
      sink.write(String(object.result.dropLast()))
    }
    sink.write(json.mealsOpening(range: reader.range, settings: reader.settings, offsets: offsets))
    let request = ReportAggregator.Request(
      meals: true, activities: kind == .both ? try store.activities() : nil, grouping: grouping)
    var days = 0
    let streamed = try ReportAggregator.stream(request, from: reader, zone: zone) { day in
      let separator = ReportJSON.dayListSeparator(before: days)
      days += 1
      sink.write { text in
        text.append(separator)
        json.day(day, into: &text)
      }
    }
    sink.write { text in
      text.append(ReportJSON.dayListEnd(count: days))
      text.append(json.mealsClosing(streamed.summary, settings: streamed.settings))
      if kind == .both, streamed.activity != nil { text.append(",\"activity\":\n") }
    }
    if kind == .both {
      if let activity = streamed.activity {
        json.activity(activity) { piece in sink.write { $0.append(piece) } }
      }
      sink.write { $0.append("}") }
    }
    sink.write { $0.append("\n") }
  }

  /// The environment variable that sets how many entries a report reads per query: a test
  /// setting (the output never depends on it), so a test can read a small log in many parts.
  static let partEntriesVariable = "LIFELOG_REPORT_PART_ENTRIES"

  /// ``partEntriesVariable`` when set, else ``ReportEntryReader/defaultPartEntries``.
  ///
  /// - Throws: ``ConfigurationError`` (exit 78, like a malformed `LIFELOG_NOW`) when it is not a
  ///   whole number in ``ReportEntryReader/partEntriesRange``.
  static func partEntries(in context: Context) throws(ConfigurationError) -> Int {
    guard let text = context.environment[partEntriesVariable], !text.isEmpty else {
      return ReportEntryReader.defaultPartEntries
    }
    let range = ReportEntryReader.partEntriesRange
    guard text.utf8.count <= 8, let value = Int(text), range.contains(value) else {
      throw ConfigurationError(
        "\(partEntriesVariable) is '\(text)'; use a whole number from \(range.lowerBound) to \(range.upperBound), or unset it"
      )
    }
    return value
  }

  /// The entry fields the output shows: ids only in JSON and CSV, notes only where meals are
  /// listed one by one (the compact and activity reports show neither).
  private var fields: ReportLog.Fields {
    switch format {
    case .csv: return .all
    case .json: return kind == .activity ? [] : .all
    case .text, .md, .html: return kind == .meals ? .notes : []
    case .pdf, .xlsx: return .notes
    }
  }

  /// Renders the report, handing the text to `write` in one piece or (the meal diary) several.
  private func render(_ content: ReportContent, style: ReportStyle, _ write: (String) -> Void) {
    switch format {
    case .md: return ReportMarkdown(content: .init(content)).render(write)
    case .json: return ReportJSON.activityReport(content.activity, write: write)
    case .csv: return  // written a day at a time (``streamsDays``), never built whole
    case .html: return ReportHTML(content: content).render(write)
    case .pdf: return  // bytes, not text (``writePDF(_:store:to:context:)``)
    case .xlsx: return  // a file, not text (``writeSpreadsheet(_:to:context:)``)
    case .text: break
    }
    switch kind {
    case .meals: content.meals.map { MealReportText(report: $0, style: style).full(write) }
    case .activity:
      content.activity.map { ActivityReportText(report: $0, style: style).full(write) }
    case .both:
      let name = content.settings.name.isEmpty ? "" : ", " + content.settings.name
      var text =
        style.bold(
          Translation.current.format("Report, {range}", ["range": ReportText.range(content.range)]))
        + name + "\n\n"
      if let meals = content.meals {
        // A row per day of the range: written in pieces, never held whole.
        write(text)
        MealReportText(report: meals, style: style).compact(write)
        text = "\n"
      }
      if let activity = content.activity {
        text += ActivityReportText(report: activity, style: style).compact()
      }
      if let offsets = ReportText.offsets(content.offsets) {
        text += "\n" + Translation.current("Offsets") + ": \(offsets)\n"
      }
      write(text)
    }
  }
}

extension ReportRequest {
  /// Draws the meal report (``ReportPDF``) or the activity report (``ActivityPDF``) as a PDF and
  /// writes it to `path`, like every report file: atomically, readable only by its owner when new.
  fileprivate func writePDF(
    _ reader: ReportEntryReader, store: LogStore, to path: String, context: Context
  ) throws {
    let activity = kind == .activity
    let request = ReportAggregator.Request(
      meals: !activity, activities: activity ? try store.activities() : nil, grouping: grouping)
    let built = try ReportAggregator.build(request, from: reader, zone: context.zone)
    let paper =
      self.paper ?? (Language.usesLetterPaper(environment: context.environment) ? .letter : .a4)
    let made = context.zone.loggedTime(at: context.now)
    let bytes: [UInt8]
    if let report = built.activity {
      bytes = try ActivityPDF(report: report, made: made, paper: paper).render()
    } else if let meals = built.meals {
      bytes = try ReportPDF(report: meals, made: made, paper: paper).render()
    } else {
      return
    }
    let file = try OutputFile(replacing: path)
    try file.write(bytes)
    try file.commit()
    let range = reader.range
    context.output.write(Self.wrote(activity ? .activity : .meals, range: range, path: path) + "\n")
  }
}

extension ReportRequest {
  /// "Wrote the meals report for 2026-11-23 to 2026-12-06 to 'meals.pdf'", in the report's
  /// language: a person reads it (the dates stay as typed in --from and --to).
  static func wrote(_ kind: ReportKind, range: ReportRange, path: String) -> String {
    let tr = Translation.current
    let values: KeyValuePairs<String, String> = [
      "from": range.from.description, "to": range.to.description, "path": path,
    ]
    switch kind {
    case .meals: return tr.format("Wrote the meals report for {from} to {to} to '{path}'", values)
    case .activity:
      return tr.format("Wrote the activity report for {from} to {to} to '{path}'", values)
    case .both: return tr.format("Wrote the report for {from} to {to} to '{path}'", values)
    }
  }

  /// Writes the meal report as a workbook (``ReportSpreadsheet``) to `path`, like every report
  /// file: atomically, readable only by its owner when new.
  fileprivate func writeSpreadsheet(
    _ reader: ReportEntryReader, to path: String, context: Context
  ) throws {
    try ReportSpreadsheet.checkRange(reader.range)
    let request = ReportAggregator.Request(meals: true, activities: nil, grouping: grouping)
    let built = try ReportAggregator.build(request, from: reader, zone: context.zone)
    guard let meals = built.meals else { return }
    let book = try SpreadsheetBook(replacing: try OutputFile(replacing: path), streaming: false)
    try ReportSpreadsheet(report: meals).write(to: book)
    try book.commit()
    context.output.write(Self.wrote(.meals, range: reader.range, path: path) + "\n")
  }
}
