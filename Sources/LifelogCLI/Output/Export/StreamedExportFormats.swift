import LifelogCore
import LifelogExchange

// The formats written as bytes, a part at a time, straight from the log by LifelogExchange.

/// `csv`: the columns `import` reads back (``LogStore/exportCSV(from:to:flushSize:flush:)``).
struct CSVExportFormat: ExportWriter {
  let name = "csv"

  func write(_ job: ExportJob) throws -> Int {
    try job.streaming { try job.store.exportCSV(from: job.from, to: job.to, flush: $0) }
  }
}

/// `jsonl`: an object per line, as `list --format json` writes them, which `import` reads back.
struct JSONLinesExportFormat: ExportWriter {
  let name = "jsonl"

  func write(_ job: ExportJob) throws -> Int {
    try job.streaming { try job.store.exportJSONLines(from: job.from, to: job.to, flush: $0) }
  }
}

/// `ics`: an iCalendar file for calendar apps, an event per entry.
struct CalendarExportFormat: ExportWriter {
  let name = "ics"

  func write(_ job: ExportJob) throws -> Int {
    try job.streaming {
      try job.store.exportCalendar(from: job.from, to: job.to, now: job.context.now, flush: $0)
    }
  }
}
