import Foundation
import LifelogTestSupport
import Testing

/// The meal report as a doctor reads it at a glance, through the real binary: one timeline for
/// the whole range, fitted to the hours meals are logged, and every gap outside the rule of
/// `mealGapMinHours` to `mealGapHours` flagged by direction and grade.
@Suite struct ReportAtAGlanceTests {
  let folder = TemporaryDirectory()

  func run(_ arguments: [String]) throws -> CommandResult {
    try LifelogProcess.run(
      arguments,
      environment: [
        "LIFELOG_DB": folder.file("lifelog.db"), "TZ": "Europe/Warsaw",
        "LIFELOG_NOW": "2026-12-02T12:30:00+01:00",
      ])
  }

  func addMeals(on day: String, at times: [String]) throws {
    for time in times {
      let added = try run(["add", "snack", "--at", "\(day) \(time)"])
      #expect(added.exitCode == 0, "\(added)")
    }
  }

  /// The report of Tue 2026-12-01 in `format`.
  func report(_ format: String) throws -> String {
    let result = try run(
      ["report", "meals", "--from", "2026-12-01", "--to", "2026-12-01", "--format", format])
    #expect(result.exitCode == 0, "\(result)")
    return result.stdout
  }

  /// The clock times labelling the timeline's axis, left to right.
  static func hourLabels(_ html: String) -> [String] {
    html.components(separatedBy: "<text class=\"hour\" ").dropFirst().compactMap { piece in
      piece.split(separator: ">", maxSplits: 1).last.map { String($0.prefix(5)) }
    }
  }

  @Test func theTimelineSpansTheHoursMealsAreLogged() throws {
    try addMeals(on: "2026-12-01", at: ["07:00", "10:00", "13:00", "16:00", "19:30"])
    let html = try report("html")
    let labels = Self.hourLabels(html)
    #expect(labels.first == "06:00" || labels.first == "07:00", "\(labels)")
    #expect(labels.last == "20:00", "\(labels)")
    #expect(!labels.contains("04:00") && !labels.contains("00:00"), "\(labels)")
    // Even ticks: every hour or every two hours, none skipped.
    let hours = labels.compactMap { Int($0.prefix(2)) }
    let steps = Set(zip(hours, hours.dropFirst()).map { $1 - $0 })
    #expect(steps == [1] || steps == [2], "\(labels)")
  }

  @Test func threeWeeksShareOneTimelineOnThePageOfTheSummary() throws {
    for day in 11...30 { try addMeals(on: "2026-11-\(day)", at: ["08:00", "12:30"]) }
    try addMeals(on: "2026-12-01", at: ["08:00", "12:30"])
    let result = try run(
      ["report", "meals", "--from", "2026-11-11", "--to", "2026-12-01", "--format", "html"])
    #expect(result.exitCode == 0, "\(result)")
    let html = result.stdout
    #expect(html.components(separatedBy: "<svg class=\"timeline\"").count == 2, "one timeline")
    #expect(html.components(separatedBy: "<text class=\"day\"").count == 22, "a row per day")
    let summary = try #require(html.range(of: "<h2>Summary</h2>"))
    let timeline = try #require(html.range(of: "<svg class=\"timeline\""))
    let firstWeek = try #require(html.range(of: "<h2>Week of"))
    #expect(summary.lowerBound < timeline.lowerBound && timeline.lowerBound < firstWeek.lowerBound)
    #expect(!html.contains("break-before: page"), "nothing pushes the timeline off page 1")
  }

  /// 1h far too short, 5h far too long, 2h30m kept, 1h40m a bit short, 3h20m a bit long.
  let mixedDay = ["08:00", "09:00", "14:00", "16:30", "18:10", "21:30"]

  @Test func gapsAreFlaggedBothWaysAndGradedInHTMLAndMarkdown() throws {
    try addMeals(on: "2026-12-01", at: mixedDay)
    let html = try report("html")
    for mark in [
      "1h <span class=\"flag short far\">▼▼ far too short</span>",
      "5h <span class=\"flag long far\">▲▲ far too long</span>",
      "1h40m <span class=\"flag short\">▼ a bit short</span>",
      "3h20m <span class=\"flag long\">▲ a bit long</span>",
      "<rect class=\"gap short far\"", "<rect class=\"gap long far\"",
      "gap under 2h</span>", "gap of 1h or less</span>", "gap over 3h</span>",
      "gap of 4h or more</span>",
    ] {
      #expect(html.contains(mark), "HTML has \(mark)")
    }
    let markdown = try report("md")
    for mark in [
      "| **1h ▼▼ far too short** |", "| **5h ▲▲ far too long** |", "| 2h30m |",
      "| **1h40m ▼ a bit short** |", "| **3h20m ▲ a bit long** |",
      "| Gaps under 2h | 2 |", "| Gaps over 3h | 2 |",
    ] {
      #expect(markdown.contains(mark), "Markdown has \(mark):\n\(markdown)")
    }
    let json = try report("json")
    for code in ["far-short", "far-long", "short", "long"] {
      #expect(json.contains("\"gapFlag\":\"\(code)\""), "JSON has \(code)")
    }
    #expect(json.contains("\"shortGaps\":2") && json.contains("\"longGaps\":2"), "\(json)")
    let csv = try report("csv")
    #expect(csv.hasPrefix("date,id,at,") && csv.contains(",flagged,gap_flag\r\n"), "\(csv)")
    #expect(
      csv.contains(",60,daytime,true,far-short\r\n") && csv.contains(",150,daytime,false,\r\n"))
    let text = try report("text")
    #expect(text.contains("1h <") && text.contains("5h !"), "\(text)")
  }

  @Test func theSettingsMoveBothEndsOfTheRule() throws {
    try addMeals(on: "2026-12-01", at: mixedDay)
    #expect(try run(["settings", "set", "mealGapMinHours", "1.5"]).exitCode == 0)
    #expect(try run(["settings", "set", "mealGapHours", "4.5"]).exitCode == 0)
    var markdown = try report("md")
    #expect(markdown.contains("| **1h ▼ a bit short** |"), "\(markdown)")
    #expect(markdown.contains("| **5h ▲ a bit long** |"), "\(markdown)")
    #expect(markdown.contains("| 1h40m |") && markdown.contains("| 3h20m |"), "\(markdown)")
    #expect(try run(["settings", "set", "mealGapMinHours", "0"]).exitCode == 0)
    #expect(try run(["settings", "set", "mealGapHours", "6"]).exitCode == 0)
    markdown = try report("md")
    for mark in ["▼ a bit", "▼▼ far", "▲ a bit", "▲▲ far"] {
      #expect(!markdown.contains(mark), "no gap is \(mark):\n\(markdown)")
    }
    #expect(markdown.contains("gaps over 6h are flagged"), "\(markdown)")
    let refused = try run(["settings", "set", "mealGapMinHours", "25"])
    #expect(refused.exitCode != 0 && refused.stderr.contains("mealGapMinHours must be"))
  }
}
