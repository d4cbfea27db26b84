import LifelogCore

/// How the renderers show a gap's flag: a mark for each direction, doubled when far outside the
/// rule, so the grade reads without colour (grey-scale print, a plain terminal).
extension MealGapFlag {
  /// `!` too long, `<` too short: plain text's one-character mark, ASCII for any terminal, in
  /// the column a flag has always had (the grade shows in HTML and Markdown).
  var textMark: String { isShort ? "<" : "!" }

  /// `▲` a bit long, `▲▲` far too long, `▼` a bit short, `▼▼` far too short: a shape that reads
  /// in grey-scale print (HTML and Markdown).
  var shape: String {
    switch self {
    case .slightlyShort: "▼"
    case .farTooShort: "▼▼"
    case .slightlyLong: "▲"
    case .farTooLong: "▲▲"
    }
  }

  /// `a bit short`, `far too short`, `a bit long`, `far too long`.
  var words: String {
    let tr = Translation.current
    switch self {
    case .slightlyShort: return tr("a bit short")
    case .farTooShort: return tr("far too short")
    case .slightlyLong: return tr("a bit long")
    case .farTooLong: return tr("far too long")
    }
  }

  /// The HTML classes of its marks: `short`, `short far`, `long`, `long far`.
  var htmlClass: String {
    switch self {
    case .slightlyShort: "short"
    case .farTooShort: "short far"
    case .slightlyLong: "long"
    case .farTooLong: "long far"
    }
  }

  /// What a legend says the mark means: `gap over 3h`, `gap of 4h or more`, `gap under 2h`,
  /// `gap of 1h or less`.
  func legendText(_ settings: ReportSettings) -> String {
    let margin = Double(Self.farMarginMinutes)
    let tr = Translation.current
    switch self {
    case .slightlyShort:
      return tr.format(
        "gap under {limit}", ["limit": ReportText.hours(minutes: settings.mealGapMinMinutes)])
    case .farTooShort:
      return tr.format(
        "gap of {limit} or less",
        ["limit": ReportText.hours(minutes: settings.mealGapMinMinutes - margin)])
    case .slightlyLong:
      return tr.format("gap over {limit}", ["limit": ReportText.gapLimit(settings)])
    case .farTooLong:
      return tr.format(
        "gap of {limit} or more",
        ["limit": ReportText.hours(minutes: settings.mealGapMinutes + margin)])
    }
  }
}

extension ReportText {
  /// The rule a gap is flagged against: `under 2h or over 3h`, or `over 3h` when no gap is too
  /// short (`mealGapMinHours` 0).
  static func gapRule(_ settings: ReportSettings) -> String {
    let tr = Translation.current
    guard settings.mealGapMinMinutes > 0 else {
      return tr.format("over {limit}", ["limit": gapLimit(settings)])
    }
    return tr.format(
      "under {minimum} or over {limit}",
      ["minimum": hours(minutes: settings.mealGapMinMinutes), "limit": gapLimit(settings)])
  }

  /// `120` minutes as `2h`, `90` as `1h30m`, as settings are typed.
  static func hours(minutes: Double) -> String {
    DurationText.format(wholeNumber(max(minutes, 0) * 60))
  }

  /// A day of meals in one phrase, or nil for a day without meals.
  ///
  /// `3 meals, 08:00 to 19:00, longest gap 5h, 1 gap over 4h`: every format says the same words;
  /// `emphasis` marks the flagged part its own way (bold, `**…**`, a span).
  static func mealDaySummary(
    _ day: MealDay, _ settings: ReportSettings, emphasis: (String) -> String
  ) -> String? {
    guard let first = day.firstMeal, let last = day.lastMeal else { return nil }
    let tr = Translation.current
    var text = tr.plural("%d meal", "%d meals", count: day.meals.count) + ", "
    text += tr.format("{first} to {last}", ["first": clock(first.time), "last": clock(last.time)])
    if let longest = day.longestGapMinutes {
      text += ", " + tr.format("longest gap {gap}", ["gap": minutes(longest)])
    }
    if day.flaggedGapCount > 0 { text += ", " + emphasis(flagCounts(day, settings)) }
    return text
  }

  /// The flagged gaps of a day by direction: `1 gap under 2h, 2 over 3h`.
  static func flagCounts(_ day: MealDay, _ settings: ReportSettings) -> String {
    let short = day.shortGapCount
    let long = day.flaggedGapCount - short
    let tr = Translation.current
    var parts: [(count: Int, limit: String)] = []
    if short > 0 {
      parts.append(
        (
          short,
          tr.format("under {limit}", ["limit": hours(minutes: settings.mealGapMinMinutes)])
        ))
    }
    if long > 0 { parts.append((long, tr.format("over {limit}", ["limit": gapLimit(settings)]))) }
    return parts.enumerated().map { index, part in
      index > 0
        ? "\(part.count) \(part.limit)"
        : tr.plural("%d gap", "%d gaps", count: part.count) + " " + part.limit
    }.joined(separator: ", ")
  }
}
