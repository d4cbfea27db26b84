import LifelogCore

/// `xlsx`: one sheet, a row per entry (``EntrySpreadsheet``), through the libxlsxwriter book the
/// meal report's spreadsheet uses too (``SpreadsheetBook``); a file only.
struct SpreadsheetExportFormat: ExportWriter {
  let name = "xlsx"
  let needsFile = true

  func write(_ job: ExportJob) throws -> Int {
    guard let file = job.file else { throw ExportFormat.needsOutput(self) }
    let language = LanguageChoice.resolve(
      job.language, setting: try job.store.value(of: .language), in: job.context)
    let book = try SpreadsheetBook(replacing: file, streaming: true)
    var count = 0
    try Translation.$current.withValue(language.translation) {
      let sheet = try EntrySpreadsheet(book: book)
      try job.store.forEachEntry(EntryQuery(from: job.from, to: job.to)) { entry in
        sheet.add(entry)
        count += 1
      }
    }
    try book.commit()
    return count
  }
}
