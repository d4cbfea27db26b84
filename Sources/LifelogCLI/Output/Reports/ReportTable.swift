/// A small aligned table for the report renderers (the entry ``Table`` has one truncatable
/// column and a bold header; this one right-aligns several columns and can highlight one).
struct ReportTable {
  let rows: [[String]]
  let rightAligned: Set<Int>
  let style: ReportStyle
  var indent = ""

  /// - Parameter highlight: a column whose cells in the given rows are shown as flagged.
  func render(highlight: (column: Int, rows: Set<Int>)? = nil) -> String {
    guard let header = rows.first else { return "" }
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
    }
    return text
  }
}
