import LifelogCore

/// One export format: the word `--format` takes for it, whether it can go to a terminal, and how
/// it writes the entries.
///
/// A new format is one type conforming to this protocol and one entry in ``ExportFormat/all``;
/// the `--format` help, its completion and the unknown-format error are derived from that list.
protocol ExportWriter: Sendable {
  /// The word `--format` takes, as help and completion list it.
  var name: String { get }
  /// Whether the format is a file only (a binary one, such as xlsx): `--output` is then required.
  var needsFile: Bool { get }
  /// Writes the entries of `job` and puts the file, if any, in place (``ExportJob/commit()``).
  ///
  /// - Returns: the number of entries written.
  func write(_ job: ExportJob) throws -> Int
}

extension ExportWriter {
  var needsFile: Bool { false }
}

/// Every export format, in the order help lists them; the first is the default.
enum ExportFormat {
  static let all: [any ExportWriter] = [
    CSVExportFormat(), JSONLinesExportFormat(), CalendarExportFormat(), SpreadsheetExportFormat(),
  ]

  /// The words help and completion list: each format's ``ExportWriter/name``.
  static var names: [String] { all.map(\.name) }

  /// `--format`: its choices and default from ``all``.
  static let option = OptionSpec(
    ["--format"], value: "format", help: OptionSpec.spokenList(names) + ".", default: names[0],
    completes: .choices(names))

  /// The format named `text` (in any case); the first format when nil.
  ///
  /// - Throws: ``UsageError`` naming the formats when no format has that name.
  static func parsing(_ text: String?) throws(UsageError) -> any ExportWriter {
    guard let text else { return all[0] }
    guard let format = all.first(where: { $0.name == text.lowercased() }) else {
      throw UsageError("Unknown format '\(text)'; use one of: \(names.joined(separator: ", "))")
    }
    return format
  }

  /// The refusal of a file-only format (``ExportWriter/needsFile``) without `--output`.
  static func needsOutput(_ format: any ExportWriter) -> UsageError {
    UsageError(
      "An \(format.name) export is a file, not text for a terminal: give --output FILE, such as "
        + "'lifelog.\(format.name)'")
  }
}
