import Foundation
import LifelogCore
import Testing

@testable import LifelogCLI

/// The list of export formats (``ExportFormat/all``) is the one place a format is registered:
/// every writer in the sources is in it once, and `--format`'s help, completion and errors list it.
@Suite struct ExportFormatRegistryTests {
  /// Sources/LifelogCLI, from Tests/LifelogCLITests/Output/Export/ this file.
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/LifelogCLI")

  /// The types declared `struct NAME: ExportWriter` anywhere under Sources/LifelogCLI.
  static func declaredWriters() throws -> [String] {
    let declaration = try Regex(
      #"(?m)^\s*(?:struct|final class|enum)\s+(\w+)\s*:\s*ExportWriter\b"#)
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

  @Test func everyWriterInTheSourcesIsRegisteredOnce() throws {
    let registered = ExportFormat.all.map { String(describing: type(of: $0)) }
    let declared = try Self.declaredWriters()
    #expect(!declared.isEmpty, "no writer found under \(Self.sources.path)")
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
