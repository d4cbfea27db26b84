import Foundation
import LifelogCore
import Testing

@testable import LifelogCLI

/// The list of report formats (``ReportFormat/all``) is the one place a format is registered:
/// every renderer in the sources is in it once, and every word `--format` takes names one format.
@Suite struct ReportFormatRegistryTests {
  /// Sources/LifelogCLI, from Tests/LifelogCLITests/Output/Reports/ this file.
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/LifelogCLI")

  /// The types declared `struct NAME: ReportRenderer` anywhere under Sources/LifelogCLI.
  static func declaredRenderers() throws -> [String] {
    let declaration = try Regex(
      #"(?m)^\s*(?:struct|final class|enum)\s+(\w+)\s*:\s*ReportRenderer\b"#)
    var names: [String] = []
    let files = FileManager.default.enumerator(atPath: sources.path)
    while let path = files?.nextObject() as? String {
      guard path.hasSuffix(".swift") else { continue }
      let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
      for match in text.matches(of: declaration) {
        if let name = match.output[1].substring { names.append(String(name)) }
      }
    }
    return names.sorted()
  }

  @Test func everyRendererInTheSourcesIsRegisteredOnce() throws {
    let registered = ReportFormat.all.map { String(describing: type(of: $0)) }
    let declared = try Self.declaredRenderers()
    #expect(!declared.isEmpty, "no renderer found under \(Self.sources.path)")
    #expect(registered.sorted() == declared, "ReportFormat.all and the ReportRenderer types differ")
  }

  @Test func everyWordNamesOneFormat() {
    let words = ReportFormat.all.flatMap { [$0.name] + $0.aliases }
    #expect(Set(words).count == words.count, "a word is claimed twice: \(words)")
    #expect(words.allSatisfy { $0 == $0.lowercased() && !$0.isEmpty })
    for format in ReportFormat.all {
      for word in [format.name] + format.aliases {
        #expect((try? ReportFormat.parsing(word.uppercased()))?.name == format.name, "\(word)")
      }
    }
  }

  @Test func helpCompletionAndTheErrorListTheRegisteredNames() {
    let option = ReportRequest.format
    #expect(ReportRequest.options(grouping: true).contains { $0.key == option.key })
    #expect(option.completion == .choices(ReportFormat.names))
    #expect(option.defaultValue == ReportFormat.all.first?.name)
    #expect(
      throws: UsageError("Unknown format 'ods'; use one of: text, md, csv, json, html, pdf, xlsx")
    ) {
      try ReportFormat.parsing("ods")
    }
  }

  @Test func byTakesThePeriodsAndTheirAliases() throws {
    for period in Target.Period.allCases {
      for word in [period.rawValue] + period.byAliases {
        #expect(try Target.Period(parsingBy: word.uppercased()) == period)
      }
    }
    #expect(Target.Period.byOption.completion == .choices(["day", "week", "month"]))
    #expect(throws: UsageError("Unknown period 'year' for --by; use day, week or month")) {
      try Target.Period(parsingBy: "Year")
    }
  }
}
