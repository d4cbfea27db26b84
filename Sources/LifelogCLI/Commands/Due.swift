import LifelogCore

extension LifelogCommand {
  /// `lifelog due`: when the next meal is due.
  struct Due: Command {
    static let configuration = CommandConfiguration(
      commandName: "due",
      abstract: "Show when the next meal is due.",
      discussion: """
        The next meal is due mealGapHours after the last one. Before the day's first meal (days
        start at dayStartsAt) it is due mealGapHours after the day began, or after the last meal
        if that is later. Gaps are real elapsed time, across DST changes and travel.
        """,
      options: [TextOrJSON.option.spec, short, LanguageChoice.option],
      examples: ["lifelog due", "lifelog due --short", "lifelog due --format json"])

    static let short = OptionSpec(
      ["--short"],
      help:
        "Print one token for a shell prompt: 1h40m, due, or +25m overdue (nothing in quiet hours).")

    let json: Bool
    let short: Bool
    let language: Language?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      json = try arguments.choice(TextOrJSON.option) == .json
      short = arguments.flag(Self.short)
      if json, short { throw UsageError("Give either --short or --format json, not both") }
      language = try LanguageChoice.parse(arguments)
    }

    func run(in context: Context) throws {
      let text = try DueText.current(in: context)
      if short {
        // A prompt at 03:30 shows nothing, as `remind` says nothing in quiet hours.
        let quiet =
          (try? QuietHours(parsing: text.values[.remindQuietHours] ?? "")) ?? .defaultHours
        let inQuietHours = quiet.contains(context.zone.loggedTime(at: context.now))
        context.output.write(inQuietHours ? "\n" : text.short + "\n")
        return
      }
      let language = LanguageChoice.resolve(language, setting: text.values[.language], in: context)
      let lines = Translation.$current.withValue(language.translation) { text.lines }
      context.output.write(json ? text.json + "\n" : lines)
    }
  }
}

extension DueText {
  /// What is due now in the context's log.
  static func current(in context: Context) throws -> DueText {
    try read(from: try context.store, now: context.now, zone: context.zone)
  }

  /// What is due at `now` in `store`: two queries (the settings, the last meal) in one read
  /// transaction, so a sync or an `add` committing between them cannot pair a meal with settings
  /// from before it.
  static func read(from store: LogStore, now: Int64, zone: any TimeZoneRules) throws -> DueText {
    let (values, lastMeal) = try store.reading {
      var values: [Setting: String] = [:]
      for (setting, value, _) in try store.allSettings() { values[setting] = value }
      return (values, try store.lastMeal(atOrBefore: now))
    }
    let due = MealDue(
      lastMeal: lastMeal?.time, now: now, settings: ReportSettings(values: values), zone: zone)
    return DueText(
      due: due, lastMeal: lastMeal, presenter: EntryPresenter(zone: zone),
      dayStartsAt: values[.dayStartsAt] ?? Setting.dayStartsAt.defaultValue, values: values)
  }
}
