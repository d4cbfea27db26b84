import Foundation
import LifelogCore
import Testing

@testable import LifelogCLI

/// The list of export formats (``ExportFormat/all``) is the one place a format is registered:
/// every writer in the sources is in it once, and `--format`'s help, completion and errors list it.
@Suite struct ExportFormatRegistryTests {
  @Test func everyWriterInTheSourcesIsRegisteredOnce() throws {
    let registered = ExportFormat.all.map { String(describing: type(of: $0)) }
    let declared = try CLISources.types(conformingTo: "ExportWriter")
    #expect(!declared.isEmpty, "no writer found under \(CLISources.folder.path)")
    #expect(registered.sorted() == declared, "ExportFormat.all and the ExportWriter types differ")
  }

  @Test func everyNameIsOneLowerCaseWordAndParsesInAnyCase() throws {
    let names = ExportFormat.names
    #expect(Set(names).count == names.count, "a name is claimed twice: \(names)")
    #expect(names.allSatisfy { $0 == $0.lowercased() && !$0.isEmpty })
    for name in names {
      #expect(try ExportFormat.parsing(name.uppercased()).name == name)
    }
    #expect(try ExportFormat.parsing(nil).name == "csv")
  }

  @Test func helpCompletionAndTheErrorListTheRegisteredNames() throws {
    let option = LifelogCommand.Export.configuration.options.first { $0.key == "--format" }
    #expect(option?.completion == .choices(ExportFormat.names))
    #expect(option?.defaultValue == ExportFormat.names.first)
    #expect(option?.help == "csv, jsonl, ics or xlsx.")
    #expect(throws: UsageError("Unknown format 'ods'; use one of: csv, jsonl, ics, xlsx")) {
      try ExportFormat.parsing("ods")
    }
  }

  @Test func onlyTheSpreadsheetNeedsAFile() {
    #expect(ExportFormat.all.filter(\.needsFile).map(\.name) == ["xlsx"])
    #expect(
      ExportFormat.needsOutput(SpreadsheetExportFormat())
        == UsageError(
          "An xlsx export is a file, not text for a terminal: give --output FILE, such as 'lifelog.xlsx'"
        ))
  }
}
