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
  /// Each row's cells' lengths in characters, counted once as the row is added.
  private var lengths: [[Int]] = []

  init(_ columns: [Column]) { self.columns = columns }

  /// Adds a row; control characters in its cells are shown escaped (they may have come by sync).
  mutating func append(_ row: [String]) {
    let cells = row.map { TerminalText.visible($0) }
    rows.append(cells)
    lengths.append(cells.map(Table.length))
  }

  /// The table as text; `width` limits each line (the truncatable column gives way), and
  /// `bold` wraps the header in terminal escapes.
  func render(width: Int? = nil, bold: Bool = false) -> String {
    let titles = columns.map(\.title)
    let titleLengths = titles.map(Table.length)
    var widths = titleLengths
    for row in lengths {
      for index in widths.indices { widths[index] = max(widths[index], row[index]) }
    }
    if let width, let cut = columns.firstIndex(where: \.truncatable) {
      let total = widths.reduce(0, +) + 2 * (columns.count - 1)
      if total > width {
        widths[cut] = max(titleLengths[cut], widths[cut] - (total - width))
      }
    }
    var text = ""
    let header = line(titles, lengths: titleLengths, widths: widths)
    text += bold ? "\u{1B}[1m" + header + "\u{1B}[0m\n" : header + "\n"
    for index in rows.indices {
      text += line(rows[index], lengths: lengths[index], widths: widths)
      text += "\n"
    }
    return text
  }

  /// One line: each cell padded to its column's width, two spaces between columns.
  ///
  /// No spaces at the end. Built as bytes: padding and joining `String`s cell by cell cost a
  /// 20-row `list` about a tenth of its instructions.
  private func line(_ cells: [String], lengths: [Int], widths: [Int]) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(widths.reduce(2 * widths.count, +))
    for index in cells.indices {
      if index > 0 { bytes += [0x20, 0x20] }
      var value = cells[index]
      var length = lengths[index]
      if length > widths[index] {
        value = String(value.prefix(max(0, widths[index] - 1))) + "…"
        length = value.count
      }
      let padding = repeatElement(UInt8(ascii: " "), count: max(0, widths[index] - length))
      if columns[index].rightAligned {
        bytes += padding
        bytes += value.utf8
      } else {
        bytes += value.utf8
        if index < cells.count - 1 { bytes += padding }
      }
    }
    // The line ends without spaces. Of a run of spaces at its end, all but the first are each a
    // character of their own (a space joins no character after it), so they go as bytes; the
    // first may belong to the character before it (one that prepends, such as U+0600) and is
    // looked at as a character.
    while bytes.count >= 2, bytes[bytes.count - 1] == 0x20, bytes[bytes.count - 2] == 0x20 {
      bytes.removeLast()
    }
    var text = String(decoding: bytes, as: UTF8.self)
    if text.utf8.last == UInt8(ascii: " "), text.last == " " { text.removeLast() }
    return text
  }

  /// The number of characters in `text`: its number of bytes when all are printable ASCII (each
  /// then a character of its own), else counted character by character.
  static func length(_ text: String) -> Int {
    isPrintableASCII(text) ? text.utf8.count : text.count
  }

  /// Whether every byte of `text` is printable ASCII (space to `~`): no line breaks, no controls,
  /// one character per byte.
  static func isPrintableASCII(_ text: String) -> Bool {
    let printable = text.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.allSatisfy { (0x20...0x7E).contains($0) }
    }
    return printable ?? text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
  }
}
