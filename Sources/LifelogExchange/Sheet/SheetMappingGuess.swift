import LifelogCore

/// Proposes a mapping for a sheet lifelog does not know, from what its columns hold.
///
/// A column whose cells are dates with times is `at`; a date column and a time column are
/// `at=Date+Time`; of the text columns, the one with the fewest distinct values (`breakfast`,
/// `lunch`, ...) is the activity and the one with the longest texts the note; a number column
/// is the quantity. The proposal is printed, never used: the person checks it first.
enum SheetMappingGuess {
  /// What most of a column's cells are.
  enum Content { case moment, date, time, number, text, empty }

  /// The most cells the guess reads: each is tried as a date, a time and a number, so a sheet of
  /// 16,384 filled columns would otherwise cost 200 times that many tries (minutes).
  static let sampledCells = 20_000

  /// How many rows under the header the guess reads: 200, fewer in a sheet so wide that 200
  /// would pass ``sampledCells`` (at least one).
  static func sampleRows(columns: Int) -> Int {
    max(1, min(200, sampledCells / max(1, columns)))
  }

  static func propose(_ table: SheetTable, headerIndex: Int) -> String? {
    let header = table.rows[headerIndex].cells.map { $0.text.trimmingSpaces() }
    let sample = table.rows.dropFirst(headerIndex + 1).prefix(sampleRows(columns: header.count))
    var kinds: [Content] = []
    for column in header.indices { kinds.append(content(sample.map { $0[column] })) }
    /// The header, or the column's letter when the header is empty or too long to show.
    func name(_ column: Int) -> String {
      let text = header[column]
      return text.isEmpty || SheetNameList.isLong(text)
        ? ColumnLetters.name(column) : text
    }
    var mapping = SheetMapping()
    var used: Set<Int> = []
    if let moment = kinds.firstIndex(of: .moment) {
      mapping.set(.at, [name(moment)])
      used.insert(moment)
    } else if let date = kinds.firstIndex(of: .date), let time = kinds.firstIndex(of: .time) {
      mapping.set(.at, [name(date), name(time)])
      used.formUnion([date, time])
    } else {
      return nil
    }
    let texts = kinds.indices.filter { kinds[$0] == .text && !used.contains($0) }
    let distinct = texts.map { column in Set(sample.map { $0[column].text.lowercased() }).count }
    let lengths = texts.map { column in sample.reduce(0) { $0 + $1[column].text.count } }
    if let activity = texts.indices.min(by: { distinct[$0] < distinct[$1] }),
      texts.count > 1 || distinct[activity] * 2 <= sample.count
    {
      mapping.set(.activity, [name(texts[activity])])
      used.insert(texts[activity])
    }
    if let note = texts.indices.filter({ !used.contains(texts[$0]) }).max(by: {
      lengths[$0] < lengths[$1]
    }) {
      mapping.set(.note, [name(texts[note])])
    }
    if let quantity = kinds.firstIndex(of: .number) { mapping.set(.quantity, [name(quantity)]) }
    var text = mapping.text
    if mapping.columns[.activity] == nil { text += " --activity NAME" }
    return text
  }

  /// What at least four in five of the filled cells are.
  static func content(_ cells: [SheetCell]) -> Content {
    let filled = cells.filter { !$0.isEmpty }
    guard !filled.isEmpty else { return .empty }
    var counts: [Content: Int] = [:]
    for cell in filled { counts[kind(cell), default: 0] += 1 }
    let dates = counts[.date, default: 0] + counts[.moment, default: 0]
    if dates * 5 >= filled.count * 4 {  // some dates with a time, some without: a date column
      return counts[.date, default: 0] >= counts[.moment, default: 0] ? .date : .moment
    }
    guard let (best, count) = counts.max(by: { $0.value < $1.value }) else { return .empty }
    return count * 5 >= filled.count * 4 ? best : .text
  }

  private static func kind(_ cell: SheetCell) -> Content {
    if case .number = cell { return .number }
    switch SheetImportRecords.moment(cell, order: .dayFirst) {
    case .exact?: return .moment
    case .local(_?, _?)?: return .moment
    case .local(_?, nil)?: return .date
    case .local(nil, _?)?: return .time
    default: break
    }
    if case .text(let text) = cell, SheetNumber.decimal(text.trimmingSpaces()) != nil {
      return .number
    }
    return cell.isEmpty ? .empty : .text
  }
}
