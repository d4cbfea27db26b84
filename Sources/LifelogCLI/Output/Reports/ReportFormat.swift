/// How a report is written: `text` for a terminal, `md` (Markdown), `csv`, `json`; `html` is
/// planned (DESIGN §5) and refused until it is built.
enum ReportFormat: String, CaseIterable {
  case text, md, csv, json

  init(parsing text: String?) throws(UsageError) {
    guard let text else {
      self = .text
      return
    }
    switch text.lowercased() {
    case "text", "txt": self = .text
    case "md", "markdown": self = .md
    case "csv": self = .csv
    case "json": self = .json
    case "html":
      throw UsageError("The html report format is not built yet; use text, md, csv or json")
    default:
      throw UsageError("Unknown format '\(text)'; use one of: text, md, csv, json")
    }
  }
}
