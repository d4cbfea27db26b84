/// The synced settings: their names, defaults and the values each accepts.
public enum Setting: String, CaseIterable, Sendable {
  /// Hours between meals before a gap is flagged as too long in the meal report.
  case mealGapHours
  /// Hours between meals under which a gap is flagged as too short (0 turns it off).
  case mealGapMinHours
  /// When a day begins for reports (a 1 a.m. snack belongs to the day before).
  case dayStartsAt
  /// The first day of a week for weekly totals.
  case weekStartsOn
  /// The person's name, printed on report titles.
  case name
  /// When `lifelog remind` stays silent (`22:00-07:00`, or `off`).
  case remindQuietHours
  /// How many minutes before a meal is due `lifelog remind` speaks up.
  case remindBeforeMinutes
  /// The language of reports and reminders (`auto`: the locale's).
  case language

  /// The value in force when none has been set.
  public var defaultValue: String {
    switch self {
    case .mealGapHours: "3"
    case .mealGapMinHours: "2"
    case .dayStartsAt: "04:00"
    case .weekStartsOn: "monday"
    case .name: ""
    case .remindQuietHours: "22:00-07:00"
    case .remindBeforeMinutes: "0"
    case .language: "auto"
    }
  }

  /// One line saying what the setting does.
  public var summary: String {
    switch self {
    case .mealGapHours: "Hours between meals before the meal report flags a gap (0.5-24)."
    case .mealGapMinHours:
      "Hours between meals under which the meal report flags a gap as too short (0-24; 0: never)."
    case .dayStartsAt:
      "When a day begins for reports, as HH:MM (a 1 a.m. snack counts to the day before)."
    case .weekStartsOn: "First day of the week for weekly totals (monday-sunday)."
    case .name: "Your name, printed on report titles (may be empty)."
    case .remindQuietHours:
      "When 'lifelog remind' stays silent, as HH:MM-HH:MM (may pass midnight), or off."
    case .remindBeforeMinutes:
      "Minutes before a meal is due that 'lifelog remind' speaks up (0-180)."
    case .language:
      "Language of reports and reminders: auto (from LC_ALL, LC_MESSAGES or LANG), en or pl."
    }
  }

  /// Finds a setting by name, case-insensitively, suggesting the nearest on a typo.
  public init(named text: String) throws(InputError) {
    if let setting = Setting.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }
    ) {
      self = setting
      return
    }
    let names = Setting.allCases.map(\.rawValue)
    let hint = Suggestions.nearest(to: text, in: names).first.map { "did you mean '\($0)'? " } ?? ""
    throw InputError(
      "Unknown setting '\(text)'; \(hint)known settings: \(names.joined(separator: ", "))")
  }

  /// Checks `text` for this setting and returns it in canonical form.
  public func validated(_ text: String) throws(InputError) -> String {
    let value = text.trimmingSpaces()
    switch self {
    case .mealGapHours:
      guard let hours = Double(value), hours.isFinite, (0.5...24).contains(hours) else {
        throw InputError(
          "mealGapHours must be a number of hours from 0.5 to 24, such as '3' or '2.5'")
      }
      return hours.rounded() == hours ? String(Int(hours)) : String(hours)
    case .mealGapMinHours:
      guard let hours = Double(value), hours.isFinite, (0...24).contains(hours) else {
        throw InputError(
          "mealGapMinHours must be a number of hours from 0 to 24, such as '2' or '1.5'")
      }
      return hours.rounded() == hours ? String(Int(hours)) : String(hours)
    case .dayStartsAt:
      guard let clock = try? ClockText.parse(value.lowercased(), original: value), clock.second == 0
      else {
        throw InputError("dayStartsAt must be a time of day such as '04:00'")
      }
      return LocalDateTime(
        date: CivilDate(daysSinceEpoch: 0), hour: clock.hour, minute: clock.minute
      )
      .timeDescription
    case .weekStartsOn:
      guard let weekday = TimeParser.weekdays[value.lowercased()] else {
        throw InputError("weekStartsOn must be a weekday such as 'monday' or 'sunday'")
      }
      return Setting.weekdayNames[weekday]
    case .name:
      guard value.count <= 100,
        !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else {
        throw InputError(
          "name must be one line of at most 100 characters, without control characters")
      }
      return value
    case .remindQuietHours:
      return try QuietHours(parsing: value).description
    case .remindBeforeMinutes:
      guard value.count <= 3, value.allSatisfy(\.isASCIIDigit), let minutes = Int(value),
        minutes <= 180
      else {
        throw InputError(
          "remindBeforeMinutes must be a whole number of minutes from 0 to 180, such as '15'")
      }
      return String(minutes)
    case .language:
      guard value.lowercased() == "auto" else { return try Language(named: value).rawValue }
      return "auto"
    }
  }

  /// The value in force when `stored` is what the log holds; nil when the default applies.
  ///
  /// It is the canonical form when this setting accepts `stored`. Stored values are checked on
  /// every read, because a value merged by sync was typed on another machine, possibly by a
  /// lifelog that did not check it (docs/sync-protocol.md §3, "Values out of range").
  public func inForce(_ stored: String) -> String? {
    try? validated(stored)
  }

  static let weekdayNames = [
    "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
  ]
}
