/// How a report is written: `text` for a terminal, `md` (Markdown), `csv`, `json`, `html` (one
/// self-contained, printable file with charts), `pdf` (the meal sheet and its weeks), or `xlsx`
/// (the meal report as a workbook: its summary, then a sheet per week).
enum ReportFormat: String, CaseIterable {
  case text, md, csv, json, html, pdf, xlsx

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
    case "html", "htm": self = .html
    case "pdf": self = .pdf
    case "xlsx": self = .xlsx
    default:
      throw UsageError("Unknown format '\(text)'; use one of: text, md, csv, json, html, pdf, xlsx")
    }
  }
}
