import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

/// Reports, `due` and `remind` in Polish and English through the real binary: what people read
/// is translated, what scripts read (JSON, CSV, `--short`) never is.
@Suite struct LanguageBinaryTests {
  let folder = TemporaryDirectory()
  var path: String { folder.file("lifelog.db") }

  init() throws { try PolishSampleLog.build(at: path) }

  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
    let base = [
      "LIFELOG_DB": path, "TZ": PolishSampleLog.zone, "LIFELOG_NOW": PolishSampleLog.now,
    ]
    return try LifelogProcess.run(arguments, environment: base.merging(environment) { $1 })
  }

  static let range = ["--from", PolishSampleLog.from, "--to", PolishSampleLog.to]

  @Test func theMealReportIsWrittenInPolish() throws {
    let result = try run(["report", "meals", "--lang", "pl"] + Self.range)
    #expect(result.exitCode == 0, "\(result)")
    for text in [
      "Posiłki, pon. 23 lis 2026 – niedz. 6 gru 2026 (14 dni)", "sob. 5 gru 2026: 3 posiłki",
      "niedz. 6 gru 2026 (do tej pory): 4 posiłki",
      "pon. 23 lis 2026: 3 posiłki", "Podsumowanie", "Dni w rytmie", "brak posiłków",
      "przerwy krótsze niż 2h (<) lub dłuższe niż 3h (!) są oznaczone",
      "(dzień dzisiejszy nieliczony: jeszcze trwa)", "Przerwy poniżej 2h",
      "(z posiłkami, bez przerwy poniżej 2h lub ponad 3h)",
      "owsianka z jabłkiem", "breakfast",
    ] {
      #expect(result.stdout.contains(text), "\(text) in \(result.stdout)")
    }
    #expect(!result.stdout.contains("Summary"))
  }

  /// Gaps flagged both ways (too short and too long) read in Polish in every format for people:
  /// the day's counts, the rule, the marks' words and the legend.
  @Test func gapsFlaggedBothWaysAreWrittenInPolish() throws {
    #expect(try run(["settings", "set", "mealGapHours", "6"]).exitCode == 0)
    #expect(try run(["settings", "set", "mealGapMinHours", "4"]).exitCode == 0)
    let text = try run(["report", "meals", "--lang", "pl"] + Self.range)
    #expect(text.exitCode == 0, "\(text)")
    for expected in [
      "wt. 24 lis 2026: 4 posiłki, 08:00–20:10, najdłuższa przerwa 5h20m, 2 przerwy poniżej 4h",
      "pon. 23 lis 2026: 3 posiłki, 07:30–19:15, najdłuższa przerwa 6h30m, 1 przerwa ponad 6h",
      "przerwy krótsze niż 4h (<) lub dłuższe niż 6h (!) są oznaczone",
    ] {
      #expect(text.stdout.contains(expected), "\(expected) in \(text.stdout.prefix(1500))")
    }
    let markdown = try run(["report", "meals", "--lang", "pl", "--format", "md"] + Self.range)
    #expect(
      markdown.stdout.contains("przerwy poniżej 4h lub ponad 6h są oznaczone: ▲ za długa"),
      "\(markdown.stdout.prefix(800))")
    let html = try run(["report", "meals", "--lang", "pl", "--format", "html"] + Self.range)
    for expected in [
      "nieco za krótka", "przerwa poniżej 4h", "1 przerwa ponad 6h",
      "przerwy między posiłkami poniżej 4h lub ponad 6h są oznaczone (▲ za długa",
    ] {
      #expect(html.stdout.contains(expected), "\(expected) in the HTML report")
    }
    for english in ["so far", "not counted", "a bit short", "gap under", " gaps under "] {
      #expect(!text.stdout.contains(english) && !html.stdout.contains(english), "\(english)")
    }
  }

  @Test func theActivityReportIsWrittenInPolish() throws {
    let result = try run(["report", "activity", "--lang", "pl", "--by", "day"] + Self.range)
    #expect(result.exitCode == 0, "\(result)")
    for text in [
      "Aktywności, pon. 23 lis 2026 – niedz. 6 gru 2026 (14 dni)", "Według dni", "AKTYWNOŚĆ",
      "Sen: brak zapisów", "breakfast",
    ] {
      #expect(result.stdout.contains(text), "\(text) in \(result.stdout.prefix(1500))")
    }
    let weekly = try run([
      "report", "activity", "--lang", "pl", "--from", "2026-11-25", "--to", PolishSampleLog.to,
    ])
    #expect(
      weekly.stdout.contains("23 lis 2026 – 29 lis 2026 (5 z 7 dni)"),
      "\(weekly.stdout.prefix(1500))"
    )
  }

  /// Every human-readable format renders in both languages, differently; JSON and CSV are the
  /// same bytes in both.
  @Test(arguments: ["text", "md", "html"], [nil, "meals", "activity"] as [String?])
  func everyFormatRendersInBothLanguages(format: String, kind: String?) throws {
    let arguments = ["report"] + (kind.map { [$0] } ?? []) + ["--format", format] + Self.range
    let english = try run(arguments + ["--lang", "en"])
    let polish = try run(arguments + ["--lang", "pl"])
    #expect(english.exitCode == 0, "\(english)")
    #expect(polish.exitCode == 0, "\(polish)")
    #expect(english.stdout != polish.stdout)
    #expect(polish.stdout.contains("2026"), "\(polish.stdout.prefix(400))")
    if kind != "activity" {
      #expect(polish.stdout.contains("Posiłki") || polish.stdout.contains("Raport"))
    }
  }

  @Test(arguments: [nil, "meals", "activity"] as [String?], ["json", "csv"])
  func machineFormatsAreTheSameInEveryLanguage(kind: String?, format: String) throws {
    let arguments = ["report"] + (kind.map { [$0] } ?? []) + ["--format", format] + Self.range
    let english = try run(arguments + ["--lang", "en"])
    let polish = try run(arguments + ["--lang", "pl"])
    let locale = try run(arguments, environment: ["LANG": "pl_PL.UTF-8"])
    #expect(english.exitCode == 0 && polish.exitCode == 0, "\(english) \(polish)")
    #expect(Array(english.stdout.utf8) == Array(polish.stdout.utf8))
    #expect(Array(english.stdout.utf8) == Array(locale.stdout.utf8))
  }

  @Test func theLanguageComesFromTheFlagTheSettingOrTheLocale() throws {
    let fromLocale = try run(["due"], environment: ["LANG": "pl_PL.UTF-8"])
    #expect(
      fromLocale.stdout.hasPrefix("Ostatni posiłek: dinner niedz. 6 gru 2026 20:10"),
      "\(fromLocale)")
    let overridden = try run(["due", "--lang", "en"], environment: ["LC_ALL": "pl_PL.UTF-8"])
    #expect(overridden.stdout.hasPrefix("Last meal: dinner Sun 2026-12-06 20:10"), "\(overridden)")
    #expect(try run(["settings", "set", "language", "pl"]).exitCode == 0)
    let fromSetting = try run(["due"], environment: ["LANG": "en_US.UTF-8"])
    #expect(fromSetting.stdout.contains("Następny posiłek:"), "\(fromSetting)")
    let short = try run(["due", "--short", "--lang", "pl"])
    #expect(short.stdout == "2h10m\n", "\(short)")
    let bad = try run(["settings", "set", "language", "de"])
    #expect(bad.exitCode != 0 && bad.stderr.contains("use one of: en, pl"), "\(bad)")
  }

  @Test func anUnknownLanguageNamesTheOnesThereAre() throws {
    for command in [["report"], ["report", "meals"], ["due"], ["remind"]] {
      let result = try run(command + ["--lang", "klingon"])
      #expect(result.exitCode == 64, "\(result)")
      #expect(result.stderr.contains("Unknown language 'klingon'; use one of: en, pl"), "\(result)")
    }
  }

  @Test func remindSpeaksPolish() throws {
    // 23:30 is in the quiet hours: set them off, then the meal due at 23:10 is reminded of.
    #expect(try run(["settings", "set", "remindQuietHours", "off"]).exitCode == 0)
    let spoken = try run(
      ["remind", "--lang", "pl"], environment: ["LIFELOG_NOW": "2026-12-06T23:30:00+01:00"])
    #expect(spoken.exitCode == 0, "\(spoken)")
    #expect(
      spoken.stdout
        == "Posiłek należał się o niedz. 6 gru 2026 23:10, 20m temu; ostatni: dinner 3h20m temu\n",
      "\(spoken)")
  }

  /// The catalogs are complete and what the binary embeds (make lint and make test run this too).
  @Test func theCatalogsAreCompleteAndEmbedded() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let result = try ToolProcess.output("/bin/sh", [root + "/scripts/catalogs.sh", "--check"])
    #expect(result.status == 0, "\(result.text)")
    // The JSON the web app reads: every message with its forms.
    let json = try ToolProcess.output(
      "/usr/bin/python3", [root + "/scripts/catalog-json.py", root + "/po/pl.po"])
    #expect(json.status == 0, "\(json.text)")
    let object = try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any]
    let messages = object?["messages"] as? [String: [String]]
    #expect(messages?["%d meal"] == ["%d posiłek", "%d posiłki", "%d posiłków"])
    #expect(messages?["weekday, short\u{4}Sat"] == ["sob."])
    #expect((object?["pluralForms"] as? String)?.hasPrefix("nplurals=3;") == true)
  }
}
