import LifelogCore

/// Import rows from `timew export`: a JSON array of intervals (`start`, `end`, `tags`,
/// `annotation`; times such as `20231001T103000Z`, in UTC).
///
/// `id` is only timewarrior's display number (it changes as intervals are added), so an entry's
/// id comes from the interval's start: intervals never overlap in timewarrior, so no two share
/// one. An open interval (still running, no `end`) is skipped and noted.
final class TimewarriorRecords: JSONSourceRecords {
  init(_ input: ChunkedReader, context: ForeignImportContext) {
    super.init(JSONElementReader(input), source: .timewarrior, context: context)
  }

  override func row(from element: JSONValue, line: Int) throws(InputError) -> ImportRow? {
    guard case .object = element else { throw InputError("the element is not an interval object") }
    guard let startText = try ForeignText.string(element, "start") else {
      throw InputError("the interval has no 'start'")
    }
    let start = try Self.instant(startText, "start")
    guard let endText = try ForeignText.string(element, "end") else {
      notices.append("line \(line): the interval started \(startText) is still open; skipped")
      return nil
    }
    let end = try Self.instant(endText, "end")
    guard end >= start else { throw InputError("the interval ends (\(endText)) before it starts") }
    let tags = try ForeignText.strings(element, "tags")
    var row = ImportRow(line: line)
    row.id = ids.next(String(start))
    row.at = context.timeText(start)
    row.duration = String(end - start)
    let activity: String
    if let chosen = context.activity {
      activity = chosen
    } else if let known = tags.first(where: { context.activities[ActivityName.key($0)] != nil }) {
      activity = known
    } else if let first = tags.first {
      activity = first
    } else {
      throw InputError("the interval has no tags to name its activity; pass --activity NAME")
    }
    row.activity = activity
    var dropped = false
    for tag in tags {
      if !dropped && tag == activity && context.activity == nil {
        dropped = true  // the tag that became the activity
        continue
      }
      row.tags.append(ForeignText.tag(tag))
    }
    row.note = try ForeignText.string(element, "annotation")
    return row
  }

  /// `20231001T103000Z` (timewarrior's UTC form) as Unix seconds, read straight from the bytes:
  /// a 100,000-interval export reads 200,000 of them.
  static func instant(_ text: String, _ key: String) throws(InputError) -> Int64 {
    var text = text
    let instant = text.withUTF8 { bytes -> Int64? in
      guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else {
        return nil
      }
      func number(_ start: Int, _ count: Int) -> Int? { bytes.decimal(at: start, count: count) }
      guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2),
        let hour = number(9, 2), let minute = number(11, 2), let second = number(13, 2),
        hour < 24, minute < 60, second < 60,
        let date = CivilDate(year: year, month: month, day: day)
      else { return nil }
      return LocalDateTime(date: date, hour: hour, minute: minute, second: second).secondsAsIfUTC
    }
    guard let instant else {
      throw InputError("'\(key)' is '\(text)', not a time such as '20231001T103000Z'")
    }
    return instant
  }
}
