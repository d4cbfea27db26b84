import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

/// Every format a person reads, under `--lang pl`, through the real binary: no English word is
/// left (headers, labels, target amounts, legends, the confirmation of a written file), dates
/// and numbers are written the Polish way, and the meal report opens with the sheet the PDF's
/// first page shows, in English too.
@Suite struct PolishReportWordsBinaryTests {
  let folder = TemporaryDirectory()
  var path: String { folder.file("lifelog.db") }
  static let range = ["--from", PolishSampleLog.from, "--to", PolishSampleLog.to]

  init() throws {
    let store = try PolishSampleLog.build(at: path)
    // A target counted in times, a logged walk, a night's sleep and an entry logged away from
    // home: the activity report's amounts, the sleep table and the time-zone note.
    _ = store
    for arguments in [
      ["activity", "edit", "snack", "--target", "5 times/week"],
      [
        "add", "walk", "--at", "2026-12-05T10:00:00+01:00", "--duration", "45m", "--kind",
        "exercise",
      ],
      ["add", "walk", "--at", "2026-12-03T10:00:00-05:00", "--duration", "30m"],
      [
        "add", "sleep", "--at", "2026-12-04T23:00:00+01:00", "--duration", "7h30m", "--kind",
        "sleep",
      ],
      ["activity", "edit", "walk", "--target", "150 min/week"],
    ] {
      let result = try run(arguments)
      #expect(result.exitCode == 0, "\(result)")
    }
  }

  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
    let base = [
      "LIFELOG_DB": path, "TZ": PolishSampleLog.zone, "LIFELOG_NOW": PolishSampleLog.now,
    ]
    return try LifelogProcess.run(arguments, environment: base.merging(environment) { $1 })
  }

  /// English words a report writes for people (activity names and notes are the person's own,
  /// and none of them is one of these).
  static let englishWords: Set<String> = [
    "the", "and", "of", "at", "in", "on", "per", "day", "days", "meal", "meals", "gap",
    "gaps", "summary", "timeline", "time", "times", "note", "first", "last", "longest",
    "overnight", "median", "average", "typical", "flagged", "logged", "start", "starts", "away",
    "home", "entry", "entries", "zones", "target", "targets", "reached", "met", "total", "totals",
    "over", "under", "range", "night", "none", "activities", "activity", "week", "from",
    "wrote", "report", "made", "each", "row", "share", "within", "fasts", "words", "morning",
    "evening", "midday", "afternoon", "hour", "bar", "so", "far", "not", "yet", "bit", "short",
    "long", "too", "counted", "period", "count", "duration", "quantity", "slept", "bed", "up",
  ]

  /// The words of what a person reads: HTML without its style sheet and tags.
  ///
  /// The line naming the activities' targets is read too: it is in the report's language.
  static func readWords(_ text: String, html: Bool) -> [String] {
    var text = text
    if html {
      text = text.replacingOccurrences(
        of: "<style>[\\s\\S]*?</style>", with: " ", options: .regularExpression)
      text = text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
    }
    return text.split { !$0.isLetter }.map { $0.lowercased() }
  }

  @Test(arguments: ["text", "md", "html"], [nil, "meals", "activity"] as [String?])
  func noEnglishWordIsLeft(format: String, kind: String?) throws {
    let arguments =
      ["report"] + (kind.map { [$0] } ?? []) + ["--format", format, "--lang", "pl"] + Self.range
    let result = try run(arguments)
    #expect(result.exitCode == 0, "\(result)")
    let english = Set(Self.readWords(result.stdout, html: format == "html"))
      .intersection(Self.englishWords)
    #expect(english.isEmpty, "\(english.sorted()) in \(arguments)")
    // Dates as Poles write them, the decimal comma, the 24-hour clock.
    #expect(result.stdout.contains("6 gru"), "\(result.stdout.prefix(600))")
    #expect(!result.stdout.contains(" AM") && !result.stdout.contains(" PM"))
    if kind != "activity" {
      #expect(result.stdout.contains("20:10"))
      #expect(result.stdout.contains("3,4"), "meals per day with a decimal comma")
    }
    if kind == "meals" && format != "text" {
      #expect(result.stdout.contains("niedziela, 6 grudnia 2026"))
      #expect(result.stdout.contains("poniedziałek, 23 listopada 2026"))
    }
  }

  /// The targets line and a week's label in Polish: `5 razy/tydzień`, `1 raz/dzień`, a decimal
  /// comma, the person's unit as typed, and the week's days written as Polish dates; in English
  /// the same line is the targets' canonical text and the week's days stay ISO dates.
  @Test(arguments: ["text", "md", "html"])
  func targetsAndWeeksAreWrittenInTheReportsLanguage(format: String) throws {
    for arguments in [
      ["activity", "edit", "breakfast", "--target", "1/day"],
      [
        "activity", "add", "swim", "--kind", "exercise", "--unit", "km", "--target", "2.5 km/month",
      ],
      ["add", "swim", "--at", "2026-12-02T18:00:00+01:00", "--qty", "1.5"],
    ] {
      let result = try run(arguments)
      #expect(result.exitCode == 0, "\(result)")
    }
    let report = ["report", "activity", "--by", "week", "--format", format] + Self.range
    let polish = try run(report + ["--lang", "pl"])
    #expect(polish.exitCode == 0, "\(polish)")
    for expected in [
      "walk 150 min/tydzień", "snack 5 razy/tydzień", "breakfast 1 raz/dzień",
      "swim 2,5 km/miesiąc", "23 lis 2026 – 29 lis 2026", "30 lis 2026 – 6 gru 2026",
    ] {
      #expect(polish.stdout.contains(expected), "\(expected) in \(polish.stdout.prefix(3000))")
    }
    // The walk logged away from home (UTC-05:00) names its day in the time-zone note.
    #expect(polish.stdout.contains("w podróży"), "\(polish.stdout.prefix(3000))")
    #expect(!polish.stdout.contains("2026-11-30"), "\(polish.stdout.prefix(3000))")
    #expect(!polish.stdout.contains("2026-12-03"), "\(polish.stdout.prefix(3000))")
    let english = try run(report + ["--lang", "en"])
    #expect(english.exitCode == 0, "\(english)")
    for expected in [
      "walk 150 min/week", "snack 5 times/week", "breakfast 1 times/day", "swim 2.5 km/month",
      "2026-11-23 to 2026-11-29", "2026-11-30 to 2026-12-06", "away",
    ] {
      #expect(english.stdout.contains(expected), "\(expected) in \(english.stdout.prefix(3000))")
    }
  }

  /// A night of two sleep entries counts them in the report's language: `(2 wpisy)`.
  @Test func aNightsEntriesAreCountedInTheReportsLanguage() throws {
    let nap = ["add", "sleep", "--at", "2026-12-04T21:00:00+01:00", "--duration", "1h"]
    #expect(try run(nap).exitCode == 0)
    let report = ["report", "activity", "--by", "day"] + Self.range
    let polish = try run(report + ["--lang", "pl"])
    #expect(polish.stdout.contains(" (2 wpisy)"), "\(polish.stdout)")
    let english = try run(report + ["--lang", "en"])
    #expect(english.stdout.contains(" (2 entries)"), "\(english.stdout)")
  }

  /// Writing to a file, the confirmation is in the report's language too.
  @Test func theConfirmationOfAWrittenFileIsPolish() throws {
    for (kind, expected) in [
      ("meals", "Zapisano raport posiłków za 2026-11-23–2026-12-06 do '"),
      ("activity", "Zapisano raport aktywności za 2026-11-23–2026-12-06 do '"),
    ] {
      let file = folder.file("\(kind).html")
      let result = try run(
        ["report", kind, "--format", "html", "--lang", "pl", "--output", file] + Self.range)
      #expect(result.exitCode == 0, "\(result)")
      #expect(result.stdout.hasPrefix(expected), "\(result)")
    }
    let english = try run(
      ["report", "--format", "md", "--lang", "en", "--output", folder.file("both.md")]
        + Self.range)
    #expect(english.stdout.hasPrefix("Wrote the report for 2026-11-23 to 2026-12-06 to '"))
  }

  /// The meal report opens with the sheet, as the PDF's first page does.
  ///
  /// Period, days logged,
  /// the four gap figures, when meals happen, the longest fasts, the words per time of day;
  /// the days follow. The figures are the same in every format.
  @Test(arguments: ["md", "html"], ["en", "pl"])
  func theSheetComesFirst(format: String, language: String) throws {
    #expect(try run(["settings", "set", "mealGapHours", "6"]).exitCode == 0)
    #expect(try run(["settings", "set", "mealGapMinHours", "4"]).exitCode == 0)
    let result = try run(
      ["report", "meals", "--format", format, "--lang", language] + Self.range)
    #expect(result.exitCode == 0, "\(result)")
    let text = result.stdout
    let headings =
      language == "en"
      ? [
        "Meal rhythm", "Monday, 23 November 2026 to Sunday, 6 December 2026",
        "Days logged: 12 of 13 days",
        "Gaps between meals against the target of 4h–6h", "Median gap",
        "Daytime gaps within target",
        "Days fully within target", "When meals happen", "The longest fasts",
        "Most frequent words in the notes", "Morning (before 11:00)", "Summary",
      ]
      : [
        "Rytm posiłków", "poniedziałek, 23 listopada 2026 – niedziela, 6 grudnia 2026",
        "Kiedy są posiłki", "Najdłuższe przerwy w jedzeniu", "Najczęstsze słowa w notatkach",
        "Podsumowanie",
      ]
    var last = text.startIndex
    for heading in headings {
      let found = try #require(text.range(of: heading), "\(heading) in \(text.prefix(3000))")
      #expect(found.lowerBound >= last, "\(heading) comes in order")
      last = found.lowerBound
    }
    // Before the days: the first day's section comes after the sheet's last part.
    let firstDay = language == "en" ? "Mon 2026-11-23" : "pon. 23 lis 2026"
    let words = try #require(text.range(of: headings[headings.count - 2]))
    let day = try #require(text.range(of: firstDay, range: words.upperBound..<text.endIndex))
    #expect(day.lowerBound > words.lowerBound)
    // The within-target count is the JSON report's unflagged gaps (both ends of the rule).
    let json = try run(["report", "meals", "--format", "json"] + Self.range)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let summary = try #require(object?["summary"] as? [String: Any])
    let gaps = try #require(summary["gaps"] as? Int)
    let flagged = try #require(summary["flaggedGaps"] as? Int)
    let within = language == "en" ? "\(gaps - flagged) of \(gaps)" : "\(gaps - flagged) z \(gaps)"
    #expect(text.contains(within), "\(within) in \(text.prefix(3000))")
  }
}
