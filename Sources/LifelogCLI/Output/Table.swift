/// A plain-text table with aligned columns, as `git` and `docker` print them.
struct Table {
  struct Column {
    let title: String
    var rightAligned = false
    /// Whether this column is cut short (with `…`) when the table is wider than the terminal.
    var truncatable = false
  }

  let columns: [Column]
  private(set) var rows: [[String]] = []

  init(_ columns: [Column]) { self.columns = columns }

  /// Adds a row; control characters in its cells are shown escaped (they may have come by sync).
  mutating func append(_ row: [String]) { rows.append(row.map { TerminalText.visible($0) }) }

  /// The table as text; `width` limits each line (the truncatable column gives way), and
  /// `bold` wraps the header in terminal escapes.
  func render(width: Int? = nil, bold: Bool = false) -> String {
    var widths = columns.indices.map { index in
      rows.reduce(columns[index].title.count) { max($0, $1[index].count) }
    }
    if let width, let cut = columns.firstIndex(where: \.truncatable) {
      let total = widths.reduce(0, +) + 2 * (columns.count - 1)
      if total > width {
        widths[cut] = max(columns[cut].title.count, widths[cut] - (total - width))
      }
    }
    var text = ""
    let header = line(columns.map(\.title), widths: widths)
    text += bold ? "\u{1B}[1m" + header + "\u{1B}[0m\n" : header + "\n"
    for row in rows { text += line(row, widths: widths) + "\n" }
    return text
  }

  private func line(_ cells: [String], widths: [Int]) -> String {
    var parts: [String] = []
    for (index, cell) in cells.enumerated() {
      var value = cell
      if value.count > widths[index] {
        value = String(value.prefix(max(0, widths[index] - 1))) + "…"
      }
      let padding = String(repeating: " ", count: widths[index] - value.count)
      let isLast = index == cells.count - 1
      parts.append(
        columns[index].rightAligned ? padding + value : (isLast ? value : value + padding))
    }
    var text = parts.joined(separator: "  ")
    while text.last == " " { text.removeLast() }
    return text
  }
}
