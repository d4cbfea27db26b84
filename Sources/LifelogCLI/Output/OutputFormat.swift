import LifelogCore

/// How a listing is printed: a table for people, JSON or CSV for scripts.
enum OutputFormat: String, CaseIterable {
  case table, json, csv

  init(parsing text: String?, default defaultFormat: OutputFormat = .table) throws(UsageError) {
    guard let text else {
      self = defaultFormat
      return
    }
    guard let format = OutputFormat(rawValue: text.lowercased()) else {
      throw UsageError(
        "Unknown format '\(text)'; use one of: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    self = format
  }
}
