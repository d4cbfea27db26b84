/// Translates what lifelog writes for people through a ``MessageCatalog``, and writes dates and
/// numbers the way the language does ("sobota, 6 grudnia 2026", "6 gru", `4,5`).
///
/// Only text for people goes through it: JSON and CSV, activity names and notes, `--short`
/// tokens and setting values stay as they are, because scripts read them.
public struct Translation: Sendable {
  public let language: Language
  public let catalog: MessageCatalog
  /// The names of weekdays (Sunday first) and months, translated once: a report names a day on
  /// every line.
  private let weekdayShortNames: [String]
  private let monthShortNames: [String]
  /// ``dayLabel(_:)``'s and ``dateLabel(_:)``'s templates, split once into text and
  /// placeholders.
  private let dayLabelParts: [Part]
  private let dateLabelParts: [Part]

  /// A piece of a template: text as it is, or the name of a placeholder.
  private enum Part: Sendable {
    case text(String)
    case placeholder(String)
  }

  public static let english = Translation(language: .en, catalog: .identity)
  /// The Polish catalog, compiled from po/pl.po; English if it cannot be read (a build that
  /// embedded a damaged catalog fails its tests instead), with ``polishProblem`` saying why.
  public static var polish: Translation { polishRead.translation }
  /// Why the Polish catalog could not be read, or nil.
  public static var polishProblem: String? { polishRead.problem }
  private static let polishRead = reading(.pl, mo: EmbeddedCatalogs.polish)

  /// The translation into `language` that the compiled catalog `bytes` give; when they are no
  /// catalog lifelog can read, English, and a sentence for people saying so.
  public static func reading(
    _ language: Language, mo bytes: [UInt8]
  ) -> (
    translation: Translation, problem: String?
  ) {
    do {
      return (Translation(language: language, catalog: try MessageCatalog(mo: bytes)), nil)
    } catch {
      return (
        .english,
        "the '\(language.rawValue)' message catalog cannot be read (\(error.message)); writing English"
      )
    }
  }

  init(language: Language, catalog: MessageCatalog) {
    self.language = language
    self.catalog = catalog
    weekdayShortNames = CivilDate.weekdayAbbreviations.map {
      catalog.text($0, context: "weekday, short")
    }
    monthShortNames = Self.months.map {
      catalog.text(String($0.prefix(3)), context: "month, short")
    }
    dayLabelParts = Self.parts(of: catalog.text("{weekday} {iso}"))
    dateLabelParts = Self.parts(of: catalog.text("{iso}", context: "date"))
  }

  /// Splits `template` at its `{name}` placeholders.
  private static func parts(of template: String) -> [Part] {
    var parts: [Part] = []
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
      parts.append(.placeholder(String(rest[rest.index(after: open)..<close])))
      rest = rest[rest.index(after: close)...]
    }
    if !rest.isEmpty { parts.append(.text(String(rest))) }
    return parts
  }

  /// The translation the report or message being written uses: English unless a command sets
  /// it (`--lang`, the `language` setting, the locale) around its output.
  @TaskLocal public static var current = Translation.english

  /// `message` translated; in `context` when the same English word has more than one meaning.
  public func callAsFunction(_ message: String, context: String? = nil) -> String {
    catalog.text(message, context: context)
  }

  /// The plural form for `count`, with `%d` replaced by it: "5 posiłków".
  public func plural(_ singular: String, _ plural: String, count: Int) -> String {
    let form = catalog.plural(singular, plural, count: count)
    return form.substitutingFirst("%d", with: String(count))
  }

  /// `template` translated (in `context`, as ``callAsFunction(_:context:)``), each `{name}` in
  /// it replaced by its value.
  public func format(
    _ template: String, _ values: KeyValuePairs<String, String>, context: String? = nil
  ) -> String {
    var text = catalog.text(template, context: context)
    for (name, value) in values { text = text.substitutingFirst("{" + name + "}", with: value) }
    return text
  }

  /// `template` translated with `values` filled in, split at its `{name}` placeholder (all of
  /// it before when it has none).
  ///
  /// For text written many times with one value changing, such as a gap's minutes in the title
  /// of every band of a timeline: the template is looked up and filled once, not per band.
  public func split(
    _ template: String, at name: String, _ values: KeyValuePairs<String, String>
  ) -> (before: String, after: String) {
    let text = format(template, values)
    guard let range = text.utf8Range(of: "{" + name + "}") else { return (text, "") }
    return (
      String(text.unicodeScalars[..<range.lowerBound]),
      String(text.unicodeScalars[range.upperBound...])
    )
  }

  /// The weekday's full name: "Saturday", "sobota".
  public func weekday(_ date: CivilDate) -> String {
    catalog.text(Self.weekdays[date.weekday], context: "weekday")
  }

  /// The weekday, short: "Sat", "sob.".
  public func weekdayShort(_ date: CivilDate) -> String {
    weekdayShortNames[date.weekday]
  }

  /// "Saturday, 6 December 2026", "sobota, 6 grudnia 2026".
  public func longDate(_ date: CivilDate) -> String {
    format(
      "{weekday}, {day} {month} {year}",
      [
        "weekday": weekday(date), "day": String(date.day),
        "month": catalog.text(Self.months[date.month - 1], context: "month, in a date"),
        "year": String(date.year),
      ])
  }

  /// "6 Dec", "6 gru".
  public func shortDate(_ date: CivilDate) -> String {
    String(date.day) + " " + monthShortNames[date.month - 1]
  }

  /// A day in a report's lists: `Sat 2026-12-06` in English (as it always was), `sob. 6 gru 2026`
  /// in Polish.
  public func dayLabel(_ date: CivilDate) -> String {
    label(date, dayLabelParts)
  }

  /// A date where no weekday is wanted (the first and last day of a week): `2026-12-06` in
  /// English (as it always was), `6 gru 2026` in Polish.
  public func dateLabel(_ date: CivilDate) -> String {
    label(date, dateLabelParts)
  }

  /// `date` written by a template's `parts`.
  private func label(_ date: CivilDate, _ parts: [Part]) -> String {
    var text = ""
    for part in parts {
      switch part {
      case .text(let literal): text += literal
      case .placeholder("weekday"): text += weekdayShortNames[date.weekday]
      case .placeholder("iso"): text += date.description
      case .placeholder("day"): text += String(date.day)
      case .placeholder("month"): text += monthShortNames[date.month - 1]
      case .placeholder("year"): text += String(date.year)
      case .placeholder(let name): text += "{" + name + "}"
      }
    }
    return text
  }

  /// A number as written in the language: `4.5` in English, `4,5` in Polish.
  public func decimal(_ number: String) -> String {
    language == .pl ? number.substitutingFirst(".", with: ",") : number
  }

  static let weekdays = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ]
  static let months = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
}

extension String {
  /// The text with the first `target` replaced (unchanged when there is none).
  ///
  /// Found by its UTF-8 bytes, which match only at whole scalars: a report fills a template
  /// for every day, and searching by `Character` cost ten times as much.
  public func substitutingFirst(_ target: String, with replacement: String) -> String {
    guard let range = utf8Range(of: target) else { return self }
    return String(unicodeScalars[..<range.lowerBound]) + replacement
      + String(unicodeScalars[range.upperBound...])
  }

  /// Where `target`'s UTF-8 bytes first occur; nil when they do not (or `target` is empty).
  func utf8Range(of target: String) -> Range<Index>? {
    let needle = target.utf8
    guard let first = needle.first else { return nil }
    var start = utf8.startIndex
    while let found = utf8[start...].firstIndex(of: first) {
      var position = found
      var matched = needle.startIndex
      while matched != needle.endIndex, position != utf8.endIndex, utf8[position] == needle[matched]
      {
        utf8.formIndex(after: &position)
        needle.formIndex(after: &matched)
      }
      if matched == needle.endIndex { return found..<position }
      start = utf8.index(after: found)
    }
    return nil
  }
}
