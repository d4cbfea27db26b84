import LifelogCore

/// Import rows from Watson: the output of `watson log --json` (objects with `id`, `start`, `stop`,
/// `project`, `tags`; ISO 8601 times) or Watson's own `frames` file (arrays `[start, stop,
/// project, id, tags, updated_at]`, Unix seconds).
///
/// Both carry the frame's id, which the entry's id comes from.
final class WatsonRecords: JSONSourceRecords {
  init(_ input: ChunkedReader, context: ForeignImportContext) {
    super.init(JSONElementReader(input), source: .watson, context: context)
  }

  override func row(from element: JSONValue, line: Int) throws(InputError) -> ImportRow? {
    let start: LoggedTime
    let stop: LoggedTime
    let project: String?
    let frameID: String?
    let tags: [String]
    switch element {
    case .array(let fields):
      guard fields.count >= 5, let first = fields[0].integer, let last = fields[1].integer,
        abs(first) < 1 << 40, abs(last) < 1 << 40
      else {
        throw InputError("the frame is not [start, stop, project, id, tags, updated_at]")
      }
      start = context.parser.zone.loggedTime(at: first)
      stop = context.parser.zone.loggedTime(at: last)
      project = fields[2].string
      frameID = fields[3].string
      tags = try ForeignText.strings(.object(["tags": fields[4]]), "tags")
    case .object:
      start = try Self.time(element, "start")
      stop = try Self.time(element, "stop")
      project = try ForeignText.string(element, "project")
      frameID = try ForeignText.string(element, "id")
      tags = try ForeignText.strings(element, "tags")
    default:
      throw InputError("the element is neither a frame array nor a 'watson log --json' object")
    }
    guard let frameID, !frameID.isEmpty else { throw InputError("the frame has no id") }
    guard stop.instant >= start.instant else {
      throw InputError("the frame stops before it starts")
    }
    var row = ImportRow(line: line)
    row.id = ids.next(frameID)
    row.at = start.iso8601
    row.duration = String(stop.instant - start.instant)
    row.activity = context.activity ?? project
    row.tags = tags.map(ForeignText.tag)
    return row
  }

  private static func time(_ element: JSONValue, _ key: String) throws(InputError) -> LoggedTime {
    guard let text = try ForeignText.string(element, key) else {
      throw InputError("the frame has no '\(key)'")
    }
    guard let time = ISO8601Text.parseExact(text) else {
      throw InputError("'\(key)' is '\(text)', not a time such as '2023-10-01T10:30:00+02:00'")
    }
    return time
  }
}
