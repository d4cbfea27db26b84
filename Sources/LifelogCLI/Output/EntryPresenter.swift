import LifelogCore
import LifelogExchange

/// Turns entries into the text people and scripts read: a table, JSON objects, CSV rows.
struct EntryPresenter {
  /// The zone the reader is in: a time logged under another offset is marked with it.
  let zone: any TimeZoneRules

  /// The CSV header; the same columns `lifelog export` will write.
  static let csvHeader = ExchangeColumn.allCases.map(\.rawValue)

  /// `Tue 2026-12-01 08:15`, with ` UTC-05:00` added when it was logged at another offset than the
  /// reader's zone has at that instant.
  func when(_ time: LoggedTime) -> String { when(time, in: Translation.current) }

  /// ``when(_:)`` in `translation`: a table of many rows reads the translation in force once.
  private func when(_ time: LoggedTime, in translation: Translation) -> String {
    let local = time.local
    var text = "\(translation.dayLabel(local.date)) \(local.timeDescription)"
    if zone.offsetSeconds(at: time.instant) != time.offsetMinutes * 60 {
      text += " UTC" + LoggedTime.offsetDescription(minutes: time.offsetMinutes)
    }
    return text
  }

  func quantity(_ entry: Entry) -> String {
    guard let quantity = entry.quantity else { return "" }
    return JSONText.number(quantity) + (entry.unit.map { " \($0)" } ?? "")
  }

  /// `text`, cut to `length` characters with `…` when longer.
  static func cut(_ text: String, to length: Int) -> String {
    text.count > length ? text.prefix(length - 1) + "…" : text
  }

  /// The note with tags after it (`oatmeal #home`), on one line.
  func noteWithTags(_ entry: Entry) -> String {
    let note = entry.note ?? ""
    var text = ""
    if Table.isPrintableASCII(note) {
      text = note  // one line already
    } else {
      for line in note.split(whereSeparator: \.isNewline) {
        if !text.isEmpty { text += " ⏎ " }
        text.append(contentsOf: line)
      }
    }
    for (index, tag) in entry.tags.enumerated() {
      text += index > 0 ? " #" : text.isEmpty ? "#" : " #"
      text += tag
    }
    return text
  }

  /// The longest note the entry table shows; a longer one is cut with `…` (`show` has it whole).
  static let tableNoteLength = 120

  func table(_ entries: [Entry]) -> Table {
    var table = Table([
      .init(title: "ID"), .init(title: "WHEN"), .init(title: "ACTIVITY"),
      .init(title: "DURATION", rightAligned: true), .init(title: "QTY", rightAligned: true),
      .init(title: "NOTE", truncatable: true),
    ])
    let translation = Translation.current
    for entry in entries {
      table.append([
        entry.shortID, when(entry.time, in: translation), entry.activityName,
        entry.duration.map(DurationText.format) ?? "",
        quantity(entry), Self.cut(noteWithTags(entry), to: Self.tableNoteLength),
      ])
    }
    return table
  }

  /// One entry as a JSON object (docs/design.md §6 fields, then unit, source and deleted).
  func json(_ entry: Entry) -> String { entry.jsonObject }

  func csv(_ entry: Entry) -> String {
    CSVText.row(
      [
        entry.id, entry.time.iso8601, entry.activityName, entry.kind.rawValue,
        entry.duration.map(String.init) ?? "", entry.note ?? "",
        entry.quantity.map(JSONText.number) ?? "", entry.unit ?? "",
        entry.tags.joinedText(separator: String(ExchangeColumn.tagSeparator)),
      ], texts: [2, 5, 7, 8])
  }

  /// A one-line description for confirmations: `1a2b3c4d breakfast Tue 2026-12-01 08:15 "oatmeal"`.
  /// - Parameter markingDeleted: whether to add ` (deleted)` to a deleted entry (not after `delete`,
  ///   which already says so).
  func summary(_ entry: Entry, markingDeleted: Bool = true) -> String {
    // The id too: one that came by sync may hold anything, and `last` reaches it untyped.
    var text =
      "\(TerminalText.visible(entry.shortID)) \(TerminalText.visible(entry.activityName)) \(when(entry.time))"
    if let duration = entry.duration { text += " \(DurationText.format(duration))" }
    if entry.quantity != nil { text += " \(quantity(entry))" }
    if let note = entry.note {
      text += " \"" + TerminalText.visible(note.count > 60 ? note.prefix(59) + "…" : note) + "\""
    }
    if !entry.tags.isEmpty { text += " " + entry.tags.map { "#\($0)" }.joinedText(separator: " ") }
    if entry.deleted, markingDeleted { text += " (deleted)" }
    return text
  }
}

extension JSONObjectWriter {
  /// An activity's fields as every JSON output names them: id, name, kind, unit, target.
  mutating func addActivity(_ activity: Activity) {
    add("id", activity.id)
    add("name", activity.name)
    add("kind", activity.kind.rawValue)
    add("unit", activity.unit)
    add("target", activity.target?.description)
  }
}
