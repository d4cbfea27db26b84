import LifelogCore

/// A report as asked for on the command line, read and checked before anything runs.
struct ReportRequest: CommandWork {
  let kind: ReportKind
  let from: CivilDate?
  let to: CivilDate?
  let grouping: Target.Period
  let format: any ReportRenderer
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

  static let from = OptionSpec(
    ["--from"], value: "day",
    help: "First day of the report (YYYY-MM-DD, today, yesterday, mon, -14d, -2w).",
    default: "6 days before --to")
  static let to = OptionSpec(
    ["--to"], value: "day", help: "Last day of the report, included.", default: "today")
  static let last = OptionSpec(
    ["--last"], value: "span", help: "The last days or weeks, today included: 14d, 2w.")
  static let format = OptionSpec.format(ReportFormat.names)
  static let output = OptionSpec(
    ["--output"], value: "file", help: "Write the report to this file instead.")
  static let paper = OptionSpec(
    ["--paper"], value: "size", help: "Paper of a PDF report: a4 or letter.",
    default: "letter in the US and Canada, else a4", completes: .choices(["a4", "letter"]))

  /// The options of `report` and its subcommands; `--by` only where totals are grouped.
  static func options(grouping: Bool) -> [OptionSpec] {
    [from, to, last] + (grouping ? [Target.Period.byOption] : [])
      + [format, output, LanguageChoice.option, paper]
  }

  init(
    _ arguments: ParsedArguments, kind: ReportKind, configuration: CommandConfiguration,
    context: Context
  ) throws {
    _ = try arguments.checkedPositionals(for: configuration)
    self.kind = kind
    format = try ReportFormat.parsing(arguments.value(Self.format))
    let parser = context.timeParser
    let to = try arguments.value(Self.to).map { try Self.day($0, parser: parser) }
    if let span = arguments.value(Self.last) {
      guard arguments.value(Self.from) == nil else {
        throw UsageError("Give either --last or --from, not both")
      }
      let days = try Self.days(inSpan: span)
      from = (to ?? parser.today).adding(days: 1 - days)
    } else {
      from = try arguments.value(Self.from).map { try Self.day($0, parser: parser) }
    }
    self.to = to
    if let from, let to { _ = try ReportRange(from: from, to: to) }
    grouping =
      try arguments.valueIfDeclared(Target.Period.byOption).map(Target.Period.init(parsingBy:))
      ?? Target.Period.byDefault
    outputPath = arguments.value(Self.output)
    language = try LanguageChoice.parse(arguments)
    paper = try arguments.value(Self.paper).map(Paper.init(parsing:))
    try format.check(self)
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
      store: store, range: range, settings: settings, fields: format.fields(for: kind),
      partEntries: try Self.partEntries(in: context))
    try format.write(ReportJob(request: self, reader: reader, store: store, context: context))
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
}
