import LifelogCore

/// `export --format xlsx`: one sheet, a row per live entry, oldest first, with real date and time
/// cells on the clock where each entry was logged and the offset beside them, durations as time
/// cells (`[h]:mm:ss`) and every text a string cell.
///
/// Rows are written out as they are read (``SpreadsheetBook`` streaming), so 100,000 entries hold
/// a row at a time, not the sheet.
struct EntrySpreadsheet {
  /// The columns, in order.
  enum Column: Int, CaseIterable {
    case at, offset, activity, kind, duration, quantity, unit, note, tags, id

    /// The header, in the language of ``Translation/current``.
    var title: String {
      let tr = Translation.current
      switch self {
      case .at: return tr("Date and time")
      case .offset: return tr("UTC offset")
      case .activity: return tr("Activity")
      case .kind: return tr("Kind")
      case .duration: return tr("Duration")
      case .quantity: return tr("Quantity")
      case .unit: return tr("Unit")
      case .note: return tr("Note")
      case .tags: return tr("Tags")
      case .id: return tr("ID")
      }
    }
  }

  let book: SpreadsheetBook

  /// Starts the one sheet, named "Entries", with its header.
  init(book: SpreadsheetBook) throws {
    self.book = book
    try book.sheet(Translation.current("Entries"), header: Column.allCases.map(\.title))
  }

  /// The row of `entry`.
  func add(_ entry: Entry) {
    book.dateTime(entry.time, column: Column.at.rawValue)
    book.text(
      LoggedTime.offsetDescription(minutes: entry.time.offsetMinutes),
      column: Column.offset.rawValue)
    book.text(entry.activityName, column: Column.activity.rawValue)
    book.text(entry.kind.rawValue, column: Column.kind.rawValue)
    if let duration = entry.duration {
      book.duration(seconds: duration, column: Column.duration.rawValue, style: .hoursSeconds)
    }
    if let quantity = entry.quantity {
      book.number(
        quantity, column: Column.quantity.rawValue, width: JSONText.number(quantity).utf8.count)
    }
    if let unit = entry.unit { book.text(unit, column: Column.unit.rawValue) }
    if let note = entry.note { book.text(note, column: Column.note.rawValue) }
    if !entry.tags.isEmpty {
      book.text(entry.tags.joined(separator: " "), column: Column.tags.rawValue)
    }
    book.text(entry.id, column: Column.id.rawValue)
    book.nextRow()
  }
}
