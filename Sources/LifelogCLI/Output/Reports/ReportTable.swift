/// A small aligned table for the report renderers (the entry ``Table`` has one truncatable
/// column and a bold header; this one right-aligns several columns and can highlight one).
///
/// Its rows can be any collection, so a table of millions of rows made on the fly (``LazyRows``)
/// is read twice, for the widths and for the lines, and never held; ``render(highlight:write:)``
/// hands the lines on in pieces of about 64 KiB.
struct ReportTable<Rows: Collection> where Rows.Element == [String] {
  let rows: Rows
  let rightAligned: Set<Int>
  let style: ReportStyle
  var indent = ""

  /// - Parameter highlight: a column whose cells in the given rows are shown as flagged.
  func render(highlight: (column: Int, rows: Set<Int>)? = nil) -> String {
    var text = ""
    render(highlight: highlight) { text += $0 }
    return text
  }

  /// Writes the table to `write` in pieces.
  func render(highlight: (column: Int, rows: Set<Int>)? = nil, write: (String) -> Void) {
    guard let header = rows.first else { return }
    var widths = Array(repeating: 0, count: header.count)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    var text = ""
    for (number, row) in rows.enumerated() {
      var cells: [String] = []
      for (index, cell) in row.enumerated() {
        var padded = ReportText.pad(cell, widths[index], right: rightAligned.contains(index))
        if let highlight, index == highlight.column, highlight.rows.contains(number) {
          padded = style.flagged(padded)
        }
        cells.append(padded)
      }
      var line = indent + cells.joined(separator: "  ")
      while line.last == " " { line.removeLast() }
      text += (number == 0 ? style.bold(line) : line) + "\n"
      if text.utf8.count >= 1 << 16 {
        write(text)
        text = ""
      }
    }
    if !text.isEmpty { write(text) }
  }
}

/// Table rows made from their position when read: a table of a row per day of the whole
/// calendar holds none of its rows.
struct LazyRows: RandomAccessCollection {
  let count: Int
  let row: (Int) -> [String]

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(index: Int) -> [String] { row(index) }
}
