import LifelogCore
import LifelogSQLite

/// iCalendar (RFC 5545) content lines built byte by byte for `export --format ics`.
///
/// Each property is first written unfolded into ``line``; ``endLine()`` then copies it out
/// folded: a physical line holds at most 75 octets (a continuation line's leading space counts),
/// a fold never falls inside a UTF-8 sequence, and every line ends in CRLF (RFC 5545 §3.1).
/// Text values are escaped as §3.3.11 asks: `\` `;` `,` and line breaks.
struct CalendarBytes {
  var bytes: [UInt8] = []
  private var line = TextBytes()
  /// Seconds of 2020-01-01T00:00:00Z: ``sequence(milliseconds:)`` counts from here, so SEQUENCE,
  /// a 32-bit INTEGER in RFC 5545, lasts until 2088 instead of 2038.
  static let sequenceEpoch: Int64 = 1_577_836_800

  init(capacity: Int) {
    bytes.reserveCapacity(capacity)
    line.reserve(1 << 15)
  }

  // MARK: - Calendar structure

  mutating func begin(productVersion: String) {
    property("BEGIN:VCALENDAR")
    property("VERSION:2.0")
    property("PRODID:-//lifelog//lifelog \(productVersion)//EN")
    property("CALSCALE:GREGORIAN")
    property("X-WR-CALNAME:lifelog")
  }

  mutating func end() { property("END:VCALENDAR") }

  /// The fixed-offset VTIMEZONE that DTSTARTs logged at `offsetMinutes` name (``tzid(_:)``).
  mutating func timeZone(offsetMinutes: Int) {
    property("BEGIN:VTIMEZONE")
    property("TZID:" + Self.tzid(offsetMinutes))
    property("BEGIN:STANDARD")
    // Before any entry: the Gregorian calendar's start as Outlook writes it.
    property("DTSTART:16010101T000000")
    let offset = Self.utcOffset(offsetMinutes)
    property("TZOFFSETFROM:" + offset)
    property("TZOFFSETTO:" + offset)
    property("TZNAME:UTC" + LoggedTime.offsetDescription(minutes: offsetMinutes))
    property("END:STANDARD")
    property("END:VTIMEZONE")
  }

  /// `Etc/GMT-1` for +01:00 (the IANA names count the other way), so a calendar that reads only
  /// zone names and ignores VTIMEZONE (Google's) still places the event right; offsets that no
  /// `Etc/` zone has (+05:30, +05:45) get `UTC+0530`, which only the VTIMEZONE defines.
  static func tzid(_ offsetMinutes: Int) -> String {
    if offsetMinutes == 0 { return "Etc/GMT" }
    if offsetMinutes % 60 == 0, (-12 * 60...14 * 60).contains(offsetMinutes) {
      let hours = offsetMinutes / 60
      return hours > 0 ? "Etc/GMT-\(hours)" : "Etc/GMT+\(-hours)"
    }
    return "UTC" + utcOffset(offsetMinutes)
  }

  /// `+0100`, `-0530`; UTC is `+0000` (RFC 5545 forbids `-0000`).
  static func utcOffset(_ minutes: Int) -> String {
    let magnitude = abs(minutes)
    return TextBytes.string { text in
      text.append(minutes < 0 ? "-" : "+")
      text.digits(magnitude / 60 % 100, 2)
      text.digits(magnitude % 60, 2)
    }
  }

  // MARK: - Events

  /// One VEVENT from a row of the calendar export query.
  ///
  /// `now` is the DTSTAMP of a row without a valid stamp.
  mutating func event(_ row: Row, now: Int64) {
    let row = ExportRow(row: row, columns: .calendar)
    property("BEGIN:VEVENT")
    row.withUTF8(.id) { id in
      start("UID:")
      text(id)
      endLine()
    }
    let modified = row.withUTF8(.stamps) { Self.newestMilliseconds(stamps: $0) }
    utcTime("DTSTAMP:", seconds: modified.map { $0 / 1000 } ?? now)
    if let modified {
      utcTime("LAST-MODIFIED:", seconds: modified / 1000)
      start("SEQUENCE:")
      line.number(Self.sequence(milliseconds: modified))
      endLine()
    } else {
      property("SEQUENCE:0")
    }
    let logged = row.loggedTime
    start("DTSTART;TZID=" + Self.tzid(logged.offsetMinutes) + ":")
    localTime(logged.local)
    endLine()
    if !row.isNull(.duration),
      let seconds = EntryFields.stored(duration: row[.duration] as Int64)
    {
      start("DURATION:")
      duration(seconds)
      endLine()
    }
    start("SUMMARY:")
    row.withActivityName { text($0) }
    if !row.isNull(.note) {
      text(": ")
      row.withUTF8(.note) { text($0) }
    }
    endLine()
    start("CATEGORIES:")
    row.withKind { text($0) }
    // Tags are stored separated by single spaces; a category list separates them by commas.
    row.withUTF8(.tags) { tags in
      for tag in tags.split(separator: 0x20) {
        line.append(byte: UInt8(ascii: ","))
        text(UnsafeBufferPointer(rebasing: tag))
      }
    }
    endLine()
    property("END:VEVENT")
  }

  /// The wall-clock milliseconds of the newest well-formed stamp in an `entry.stamps` column
  /// (one 28-digit stamp, or one per field separated by commas), nil when there is none.
  static func newestMilliseconds(stamps: UnsafeBufferPointer<UInt8>) -> Int64? {
    var newest: Int64?
    for stamp in stamps.split(separator: UInt8(ascii: ",")) {
      if let milliseconds = Stamp.milliseconds(utf8: stamp), milliseconds > newest ?? -1 {
        newest = milliseconds
      }
    }
    return newest
  }

  /// SEQUENCE for a row last written at `milliseconds`.
  ///
  /// Whole seconds since ``sequenceEpoch``, held to 0...Int32.max. Every edit stamps a later time (the hybrid clock never goes back),
  /// so a newer export never carries a lower SEQUENCE for an entry and a re-importing calendar
  /// takes it as the update it is.
  static func sequence(milliseconds: Int64) -> Int64 {
    min(max(milliseconds / 1000 - sequenceEpoch, 0), Int64(Int32.max))
  }

  // MARK: - Values

  /// `PT1H30M`, `PT45S`, `PT0S`: hours, minutes and seconds as RFC 5545's `dur-time` orders
  /// them (a minute part stands between hours and seconds, even when it is 0).
  private mutating func duration(_ seconds: Int) {
    let hours = seconds / 3600
    let minutes = seconds / 60 % 60
    let rest = seconds % 60
    line.append("PT")
    if hours > 0 {
      line.number(Int64(hours))
      line.append(byte: UInt8(ascii: "H"))
    }
    if minutes > 0 || (hours > 0 && rest > 0) {
      line.number(Int64(minutes))
      line.append(byte: UInt8(ascii: "M"))
    }
    if rest > 0 || seconds == 0 {
      line.number(Int64(rest))
      line.append(byte: UInt8(ascii: "S"))
    }
  }

  private mutating func utcTime(_ name: String, seconds: Int64) {
    start(name)
    localTime(LocalDateTime(instant: seconds, offsetSeconds: 0))
    line.append(byte: UInt8(ascii: "Z"))
    endLine()
  }

  /// A local DATE-TIME: `20261201T081500`.
  ///
  /// Years are held to 0...9999 (the four digits a DATE-TIME has); the time parsers accept no other, so only a damaged row could reach the bounds.
  private mutating func localTime(_ time: LocalDateTime) {
    line.digits(min(max(time.date.year, 0), 9999), 4)
    line.digits(time.date.month, 2)
    line.digits(time.date.day, 2)
    line.append(byte: UInt8(ascii: "T"))
    line.digits(time.hour, 2)
    line.digits(time.minute, 2)
    line.digits(time.second, 2)
  }

  /// Escaped TEXT: `\\`, `\;`, `\,`, `\n` for a line break (CRLF, LF or CR); other control
  /// characters, which no iCalendar value may hold, are left out.
  private mutating func text(_ value: UnsafeBufferPointer<UInt8>) {
    var previous: UInt8 = 0
    for byte in value {
      switch byte {
      case 0x5C, 0x3B, 0x2C:
        line.append(byte: 0x5C)
        line.append(byte: byte)
      case 0x0A where previous == 0x0D:
        break  // the CR already wrote the line break
      case 0x0A, 0x0D:
        line.append("\\n")
      case 0x09, 0x20...0x7E, 0x80...:
        line.append(byte: byte)
      default:
        break
      }
      previous = byte
    }
  }

  private mutating func text(_ value: String) {
    var value = value
    value.withUTF8 { text($0) }
  }

  private mutating func start(_ prefix: String) { line.append(prefix) }

  private mutating func property(_ content: String) {
    start(content)
    endLine()
  }

  /// Copies ``line`` out folded at 75 octets, never inside a UTF-8 sequence, then CRLF.
  private mutating func endLine() {
    let raw = line.bytes
    var width = 0
    var index = 0
    while index < raw.count {
      var end = index + 1
      // A character's continuation bytes stay with it (at most 3: malformed text still folds).
      while end < raw.count, end - index < 4, raw[end] & 0xC0 == 0x80 { end += 1 }
      if width + (end - index) > 75 {
        bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
        width = 1
      }
      bytes.append(contentsOf: raw[index..<end])
      width += end - index
      index = end
    }
    bytes.append(contentsOf: [0x0D, 0x0A])
    line.removeAll()
  }
}
