/// Every report format, in the order help lists them; the first is the default.
enum ReportFormat {
  static let all: [any ReportRenderer] = [
    TextReportFormat(), MarkdownReportFormat(), CSVReportFormat(), JSONReportFormat(),
    HTMLReportFormat(), PDFReportFormat(), SpreadsheetReportFormat(),
  ]

  /// The words help and completion list: each format's ``ReportRenderer/name``.
  static var names: [String] { all.map(\.name) }

  /// The format named `text` (a name or an alias, in any case); the first format when nil.
  ///
  /// - Throws: ``UsageError`` naming the formats when no format has that name.
  static func parsing(_ text: String?) throws(UsageError) -> any ReportRenderer {
    guard let text else { return all[0] }
    let word = text.lowercased()
    guard let format = all.first(where: { $0.name == word || $0.aliases.contains(word) }) else {
      throw UsageError("Unknown format '\(text)'; use one of: \(names.joined(separator: ", "))")
    }
    return format
  }
}
