import LifelogCore

/// Reads a CSV file as a spreadsheet saves it into a ``SheetTable``: any of the encodings of
/// ``SheetEncoding``, `;`, `,` or a tab between fields, quoted fields as RFC 4180 has them.
///
/// The whole file is held (at most ``byteLimit``): the dates of every row decide how an
/// ambiguous one reads before the first row is imported.
public enum CSVSheet {
  /// The largest CSV sheet read: far beyond any sheet kept by hand.
  public static let byteLimit = 256 << 20

  /// The separators looked for, most likely first.
  public static let separators: [Character] = [";", ",", "\t"]

  /// The table of `bytes`; `separator` and `encoding` when the command names them.
  public static func read(
    _ bytes: [UInt8], name: String, separator: Character? = nil, encoding: SheetEncoding? = nil
  ) throws(InputError) -> SheetTable {
    let text = try (encoding ?? SheetEncoding.detect(bytes)).decode(bytes)
    let utf8 = Array(text.utf8)
    let separator = separator ?? detectSeparator(utf8)
    guard let byte = separator.asciiValue else {
      throw InputError("The separator '\(separator)' is not one character of ASCII; use ';' or ','")
    }
    return SheetTable(name: name, rows: try records(utf8, separator: byte), numberedBy: "line")
  }

  /// The separator of the first line that occurs most often outside quotes (`,` on a tie).
  static func detectSeparator(_ utf8: [UInt8]) -> Character {
    var counts: [UInt8: Int] = [:]
    var quoted = false
    for byte in utf8 {
      if byte == UInt8(ascii: "\"") { quoted.toggle() }
      if !quoted, byte == UInt8(ascii: "\n") { break }
      if !quoted { counts[byte, default: 0] += 1 }
    }
    let count = { (separator: Character) in counts[separator.asciiValue ?? 0] ?? 0 }
    let best = separators.max { first, second in
      count(first) != count(second) ? count(first) < count(second) : second == ","
    }
    guard let best, count(best) > 0 else { return "," }
    return best
  }

  /// The records, each numbered by the line it starts on; rows with no field filled are left
  /// out (a spreadsheet saves its empty rows as `;;;`).
  ///
  /// The bounds of an xlsx hold here too, since one byte (a `;`) makes a cell: a record has at
  /// most ``SheetLimits/columns`` fields, and the rows hold at most ``SheetLimits/cells`` cells
  /// (past the first 20 rows, where the header is, a row keeps no empty cells after its last
  /// filled one).
  static func records(_ utf8: [UInt8], separator: UInt8) throws(InputError) -> [SheetRow] {
    var rows: [SheetRow] = []
    var cells: [SheetCell] = []
    var field: [UInt8] = []
    var line = 1
    var start = 1
    var quoted = false
    var index = 0
    var held = 0
    let quote = UInt8(ascii: "\"")
    func endField() throws(InputError) {
      guard cells.count < SheetLimits.columns else {
        throw InputError(
          "line \(start) has more than \(SheetLimits.columns) fields, more than a spreadsheet "
            + "row can; is the separator right? (name it with --separator)")
      }
      let text = String(decoding: field, as: UTF8.self)
      cells.append(text.isEmpty ? .empty : .text(text))
      field.removeAll(keepingCapacity: true)
    }
    func endRecord() throws(InputError) {
      try endField()
      if let last = cells.lastIndex(where: { !$0.isEmpty }) {
        let kept = rows.count < 20 ? cells.count : last + 1
        held += kept
        guard held <= SheetLimits.cells else {
          throw InputError(
            "line \(start): the sheet has more than \(SheetLimits.cells) cells, more than "
              + "lifelog reads in a sheet; split it")
        }
        rows.append(SheetRow(number: start, cells: Array(cells.prefix(kept))))
      }
      cells.removeAll(keepingCapacity: true)
    }
    while index < utf8.count {
      let byte = utf8[index]
      index += 1
      if quoted {
        if byte == quote {
          if index < utf8.count, utf8[index] == quote {
            field.append(quote)
            index += 1
          } else {
            quoted = false
          }
        } else {
          if byte == UInt8(ascii: "\n") { line += 1 }
          field.append(byte)
        }
        guard field.count <= RecordLimit.bytes else {
          throw RecordLimit.exceeded(line: start, what: "the CSV record")
        }
        continue
      }
      switch byte {
      case quote where field.isEmpty: quoted = true
      case separator: try endField()
      case UInt8(ascii: "\r"): continue
      case UInt8(ascii: "\n"):
        try endRecord()
        line += 1
        start = line
      default:
        field.append(byte)
        guard field.count <= RecordLimit.bytes else {
          throw RecordLimit.exceeded(line: start, what: "the CSV record")
        }
      }
    }
    if quoted {
      throw InputError("line \(start): a quoted field is never closed; close it with '\"'")
    }
    if !field.isEmpty || !cells.isEmpty { try endRecord() }
    return rows
  }
}
