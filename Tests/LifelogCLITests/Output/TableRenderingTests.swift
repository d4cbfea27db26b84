import LifelogCore
import Testing

@testable import LifelogCLI

/// A table renders exactly as the plain `String` rendering it replaced (kept below as the
/// reference): the same widths in characters, the same cuts, padding and trimmed line ends, for
/// cells of every kind (wide and combined characters, spaces at either end, controls, long notes).
@Suite struct TableRenderingTests {
  static let cells = [
    "", " ", "a", "a ", " a", "abc  ", "żółw", "e\u{301}cole", "\u{600} ", "x \u{600} ", "🇵🇱",
    "👩‍👩‍👧 family", "tab\there", "esc\u{1B}[2J", "line\r\nbreak", "#tag #other",
    String(repeating: "long note ", count: 15), String(repeating: "żółć ", count: 30), "…", "12:30",
  ]

  @Test func everyTableRendersAsTheReferenceDoes() {
    let seed: UInt64 = 27
    print("TableRenderingTests seed \(seed)")
    var random = SplitMix64(seed: seed)
    for _ in 0..<400 {
      let columnCount = Int.random(in: 1...6, using: &random)
      let columns = (0..<columnCount).map { index in
        Table.Column(
          title: ["ID", "WHEN", "ACTIVITY", "DURATION", "QTY", "NOTE"][index],
          rightAligned: Bool.random(using: &random), truncatable: index == columnCount - 1)
      }
      var table = Table(columns)
      for _ in 0..<Int.random(in: 0...5, using: &random) {
        table.append(
          (0..<columnCount).map { _ in Self.cells.randomElement(using: &random) ?? "" })
      }
      let width = Bool.random(using: &random) ? nil : Int.random(in: 10...140, using: &random)
      let bold = Bool.random(using: &random)
      #expect(
        table.render(width: width, bold: bold)
          == Self.reference(table, width: width, bold: bold), "\(table.rows) width \(width ?? 0)")
    }
  }

  /// The rendering as it was written before, `String` by `String`.
  static func reference(_ table: Table, width: Int?, bold: Bool) -> String {
    let columns = table.columns
    var widths = columns.indices.map { index in
      table.rows.reduce(columns[index].title.count) { max($0, $1[index].count) }
    }
    if let width, let cut = columns.firstIndex(where: \.truncatable) {
      let total = widths.reduce(0, +) + 2 * (columns.count - 1)
      if total > width {
        widths[cut] = max(columns[cut].title.count, widths[cut] - (total - width))
      }
    }
    func line(_ cells: [String]) -> String {
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
    var text = ""
    let header = line(columns.map(\.title))
    text += bold ? "\u{1B}[1m" + header + "\u{1B}[0m\n" : header + "\n"
    for row in table.rows { text += line(row) + "\n" }
    return text
  }
}
