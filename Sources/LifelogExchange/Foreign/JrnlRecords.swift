import LifelogCore

/// Import rows from `jrnl --export json`: an object whose `entries` array holds `date`
/// (`2023-10-01`), `time` (`21:10`, local, no offset), `title`, `body` and `tags` (`@dog`).
///
/// Each journal entry becomes a note entry of the activity `--activity` names (default
/// `journal`). jrnl keeps no id: the entry's id comes from its date, time and title (and its
/// ordinal among entries alike in those, ``ForeignRecordIDs``), so an entry whose body was edited
/// in a newer export is updated, not added twice.
final class JrnlRecords: JSONSourceRecords {
  static let defaultActivity = "journal"

  init(_ input: ChunkedReader, context: ForeignImportContext) {
    super.init(JSONElementReader(input, member: "entries"), source: .jrnl, context: context)
  }

  override func row(from element: JSONValue, line: Int) throws(InputError) -> ImportRow? {
    guard case .object = element else { throw InputError("the entry is not an object") }
    guard let date = try ForeignText.string(element, "date"),
      let time = try ForeignText.string(element, "time")
    else { throw InputError("the entry has no 'date' and 'time'") }
    let title = try ForeignText.string(element, "title") ?? ""
    let body = try ForeignText.string(element, "body") ?? ""
    var row = ImportRow(line: line)
    row.id = ids.next(date, time, title)
    row.at = "\(date) \(time)"
    row.activity = context.activity ?? Self.defaultActivity
    let note = body.isEmpty ? title : title + "\n" + body
    row.note = note.isEmpty ? nil : note
    row.tags = try ForeignText.strings(element, "tags").map { tag in
      ForeignText.tag(tag.first == "@" || tag.first == "#" ? String(tag.dropFirst()) : tag)
    }
    return row
  }
}
