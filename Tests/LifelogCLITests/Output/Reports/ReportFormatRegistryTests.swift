import Foundation
import LifelogCore
import Testing

@testable import LifelogCLI

/// The list of report formats (``ReportFormat/all``) is the one place a format is registered:
/// every renderer in the sources is in it once, and every word `--format` takes names one format.
@Suite struct ReportFormatRegistryTests {
  @Test func everyRendererInTheSourcesIsRegisteredOnce() throws {
    let registered = ReportFormat.all.map { String(describing: type(of: $0)) }
    let declared = try CLISources.types(conformingTo: "ReportRenderer")
    #expect(!declared.isEmpty, "no renderer found under \(CLISources.folder.path)")
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
