import CLifelogXLSX
@preconcurrency import Glibc
import LifelogCore

/// A workbook being written (through libxlsxwriter, ``CLifelogXLSX``): sheets of a header row and
/// rows of cells, each sheet with its first row frozen, an autofilter over its rows and columns as
/// wide as their widest cell.
///
/// Every text is a string cell, so a note that starts with `=`, `+`, `-` or `@` is shown as it is
/// and never evaluated. Dates and times are Excel's serial days, on the clock where each entry was
/// logged.
///
/// libxlsxwriter writes to a file name, so the book is written into a private staging folder
/// beside the target (its temporary files there too), then copied through ``OutputFile``: the
/// target is replaced atomically, with the permissions of every report file.
final class SpreadsheetBook {
  /// A cell's style (``lifelog_xlsx_style``).
  enum Style {
    case plain, header, dateTime, date, time, hours, hoursSeconds, flaggedHours, muted

    var code: lifelog_xlsx_style {
      switch self {
      case .plain: LIFELOG_XLSX_PLAIN
      case .header: LIFELOG_XLSX_HEADER
      case .dateTime: LIFELOG_XLSX_DATE_TIME
      case .date: LIFELOG_XLSX_DATE
      case .time: LIFELOG_XLSX_TIME
      case .hours: LIFELOG_XLSX_HOURS
      case .hoursSeconds: LIFELOG_XLSX_HOURS_SECONDS
      case .flaggedHours: LIFELOG_XLSX_FLAGGED_HOURS
      case .muted: LIFELOG_XLSX_MUTED
      }
    }
  }

  /// The most characters a cell holds (Excel's limit); a longer text is cut, ending in `…`.
  static let maximumCellCharacters = 32_767
  /// The widest a column is made, in characters (a long note wraps no further: it is cut on screen).
  static let maximumColumnWidth = 60.0
  /// The first day Excel's serial days count correctly (1900-03-01: Excel takes 1900 for a leap
  /// year); an earlier time is written as ISO 8601 text.
  static let firstSerialDay = CivilDate(daysSinceEpoch: -25_508)

  private let book: OpaquePointer
  private let staging: String
  private let target: OutputFile
  private var row: UInt32 = 0
  private var columnCount = 0
  /// The widest cell of each column of the current sheet, in characters.
  private var widths: [Int] = []
  private var closed = false

  /// Starts a workbook that replaces `file` when ``commit()`` is called.
  ///
  /// - Parameter streaming: rows are written out as they are made (libxlsxwriter's constant
  ///   memory mode), for one long sheet; off for many sheets (each would hold a file open).
  /// - Throws: ``SpreadsheetError`` when libxlsxwriter is missing, ``OutputWriteError`` when the
  ///   staging folder cannot be made.
  init(replacing file: OutputFile, streaming: Bool) throws {
    target = file
    let folder = ReportFile.folder(of: file.path)
    var template = Array((folder == "/" ? "/" : folder + "/").utf8CString.dropLast())
    template += Array(".lifelog-xlsx-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
    }
    guard let made else {
      let code = errno
      throw OutputWriteError(path: file.path, code: code, creating: code != EIO && code != ENOSPC)
    }
    staging = made
    var error = [CChar](repeating: 0, count: 512)
    guard
      let opened = lifelog_xlsx_open(
        staging + "/book.xlsx", staging, streaming ? 1 : 0, &error, error.count)
    else {
      rmdir(staging)
      throw SpreadsheetError.unavailable(String(cString: error))
    }
    book = opened
  }

  deinit {
    if !closed {
      var error = [CChar](repeating: 0, count: 256)
      _ = lifelog_xlsx_close(book, &error, error.count)
    }
    unlink(staging + "/book.xlsx")
    rmdir(staging)
  }

  /// Starts a sheet named `name` with `header` as its first row.
  func sheet(_ name: String, header: [String]) throws(SpreadsheetError) {
    finishSheet()
    var error = [CChar](repeating: 0, count: 512)
    guard lifelog_xlsx_add_sheet(book, name, &error, error.count) == 0 else {
      throw SpreadsheetError.refused(String(cString: error))
    }
    row = 0
    columnCount = header.count
    widths = header.map(\.count)
    for (column, title) in header.enumerated() { text(title, column: column, style: .header) }
    row = 1
  }

  /// Moves to the next row.
  func nextRow() { row &+= 1 }

  /// A string cell in the current row.
  func text(_ text: String, column: Int, style: Style = .plain) {
    var text = text
    if text.utf8.count > Self.maximumCellCharacters,
      text.unicodeScalars.count > Self.maximumCellCharacters
    {
      text = String(text.unicodeScalars.prefix(Self.maximumCellCharacters - 1)) + "…"
    }
    widen(column, to: Self.characters(in: text))
    let length = text.utf8.count
    _ = text.withCString { lifelog_xlsx_string(book, row, UInt16(column), $0, length, style.code) }
  }

  /// A number cell in the current row; `width` is how many characters it shows.
  func number(_ value: Double, column: Int, style: Style = .plain, width: Int) {
    widen(column, to: width)
    _ = lifelog_xlsx_number(book, row, UInt16(column), value, style.code)
  }

  /// A date and time as logged (`2026-12-07 08:15`), or ISO 8601 text before 1900-03-01.
  func dateTime(_ time: LoggedTime, column: Int) {
    guard let serial = Self.serialDay(time) else { return text(time.iso8601, column: column) }
    number(serial, column: column, style: .dateTime, width: 16)
  }

  /// A day (`Mon 2026-12-07`), or ISO 8601 text before 1900-03-01.
  func date(_ date: CivilDate, column: Int) {
    guard date.daysSinceEpoch >= Self.firstSerialDay.daysSinceEpoch else {
      return text(date.description, column: column)
    }
    number(Double(Self.serial(of: date)), column: column, style: .date, width: 14)
  }

  /// A time of day as logged (`08:15`).
  func timeOfDay(_ time: LoggedTime, column: Int) {
    let local = time.local
    let seconds = local.hour * 3600 + local.minute * 60 + local.second
    number(Double(seconds) / 86_400, column: column, style: .time, width: 5)
  }

  /// A length of time (`2:30`, `27:05` past a day), in hours and minutes or with seconds.
  func duration(seconds: Int, column: Int, style: Style = .hours) {
    number(Double(seconds) / 86_400, column: column, style: style, width: 8)
  }

  /// Writes the workbook and puts it in place of the target.
  ///
  /// - Throws: ``SpreadsheetError`` when libxlsxwriter cannot write the staged file,
  ///   ``OutputWriteError`` when it cannot be read back or written to the target (both exit 74).
  func commit() throws {
    finishSheet()
    closed = true
    var error = [CChar](repeating: 0, count: 512)
    guard lifelog_xlsx_close(book, &error, error.count) == 0 else {
      throw SpreadsheetError.writing(target.path, String(cString: error))
    }
    let bytes: [UInt8]
    do {
      bytes = try LocalFile.read(staging + "/book.xlsx", limit: Int.max)
    } catch {
      throw OutputWriteError(path: target.path, code: error.systemErrno ?? EIO)
    }
    try target.write(bytes)
    try target.commit()
  }

  /// Freezes the current sheet's header, puts the autofilter over it and sets the widths.
  private func finishSheet() {
    guard columnCount > 0 else { return }
    lifelog_xlsx_header_and_filter(book, row > 0 ? row - 1 : 0, UInt16(columnCount - 1))
    for (column, width) in widths.enumerated() {
      // Two more for the autofilter's button, one for a margin.
      lifelog_xlsx_column_width(
        book, UInt16(column), min(Double(width) + 3, Self.maximumColumnWidth))
    }
    columnCount = 0
  }

  private func widen(_ column: Int, to width: Int) {
    if column < widths.count, width > widths[column] { widths[column] = width }
  }

  /// The characters `text` shows on one line: its longest line's Unicode scalars, counted on the
  /// UTF-8 bytes (every byte that does not continue a character).
  static func characters(in text: String) -> Int {
    var longest = 0
    var current = 0
    for byte in text.utf8 {
      if byte == 0x0A {
        longest = max(longest, current)
        current = 0
      } else if byte & 0xC0 != 0x80 {
        current += 1
      }
    }
    return max(longest, current)
  }

  /// Excel's serial day of `time`'s date and time as logged; nil before 1900-03-01.
  static func serialDay(_ time: LoggedTime) -> Double? {
    let local = time.instant &+ Int64(time.offsetMinutes) &* 60
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    guard days >= firstSerialDay.daysSinceEpoch else { return nil }
    let seconds = local - days * 86_400
    return Double(days + unixEpochSerial) + Double(seconds) / 86_400
  }

  /// Excel's serial day of `date` (from 1900-03-01).
  static func serial(of date: CivilDate) -> Int64 { date.daysSinceEpoch + unixEpochSerial }

  /// 1970-01-01 in Excel's serial days.
  static let unixEpochSerial: Int64 = 25_569
}

/// A spreadsheet that could not be made: libxlsxwriter missing (exit 69, as for a PDF without
/// cairo), refusing a sheet (exit 1), or failing to write the file (exit 74, like any output).
struct SpreadsheetError: Error, CustomStringConvertible {
  enum Kind { case unavailable, refused, writing }

  let kind: Kind
  let description: String

  static func unavailable(_ message: String) -> SpreadsheetError {
    SpreadsheetError(kind: .unavailable, description: "Cannot make the spreadsheet: " + message)
  }

  static func refused(_ message: String) -> SpreadsheetError {
    SpreadsheetError(kind: .refused, description: "Cannot make the spreadsheet: " + message)
  }

  static func writing(_ path: String, _ message: String) -> SpreadsheetError {
    SpreadsheetError(
      kind: .writing,
      description:
        "Cannot write '\(path)': \(message); '\(path)' was left as it was. Check the disk (free space, `dmesg`) and run again"
    )
  }

  var exitCode: Int32 {
    switch kind {
    case .unavailable: ExitCode.unavailable
    case .refused: ExitCode.failure
    case .writing: ExitCode.ioError
    }
  }
}
