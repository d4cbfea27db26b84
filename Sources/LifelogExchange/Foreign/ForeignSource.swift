import LifelogCore

/// The other tools `lifelog import --from` reads the exports of (docs/import.md).
public enum ForeignSource: String, CaseIterable, Sendable {
  case timewarrior, watson, jrnl, cronometer
  case appleHealth = "apple-health"

  /// `timewarrior, watson, ...` for messages and help.
  public static let list = allCases.map(\.rawValue).joined(separator: ", ")

  /// Whether `--activity` can say where every row goes: the sources whose rows are all one sort.
  public var takesActivity: Bool { self != .cronometer && self != .appleHealth }

  /// The reader of this source's export.
  ///
  /// `path` is needed for a zip file, which is read from its end (apple-health's export.zip).
  public func records(
    from input: ChunkedReader, path: String?, context: ForeignImportContext
  ) throws -> any ForeignRecords {
    switch self {
    case .timewarrior: TimewarriorRecords(input, context: context)
    case .watson: WatsonRecords(input, context: context)
    case .jrnl: JrnlRecords(input, context: context)
    case .cronometer: CronometerRecords(input, context: context)
    case .appleHealth: try AppleHealthRecords.open(input, path: path, context: context)
    }
  }
}

/// Import rows read from another tool's export, and what was left out of them on purpose.
public protocol ForeignRecords: ImportRecords {
  /// Records of the source that were skipped as designed (an open timewarrior interval), one line
  /// each; read it once the import is over.
  var notices: [String] { get }
}

/// What a foreign import knows beyond its input: the zone its times are shown in, the activity
/// asked for, and the activities the log already has (timewarrior picks the first tag that names
/// one; cronometer gives kcal only to an activity counted in kcal).
public struct ForeignImportContext: Sendable {
  public var parser: TimeParser
  /// `--activity`: every row goes to this activity.
  public var activity: String?
  /// The log's activities by ``ActivityName/key(_:)``.
  public var activities: [String: Activity]

  public init(parser: TimeParser, activity: String? = nil, activities: [Activity] = []) {
    self.parser = parser
    self.activity = activity
    self.activities = Dictionary(
      activities.map { (ActivityName.key($0.name), $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// An instant as the time text of an import row, in the offset the local zone had then.
  func timeText(_ instant: Int64) -> String { parser.zone.loggedTime(at: instant).iso8601 }
}

/// Turns tool-specific words into what lifelog stores.
enum ForeignText {
  /// A tag of another tool as a lifelog tag: one word, so spaces, commas and semicolons become '-'.
  static func tag(_ text: String) -> String {
    let separators: Set<UInt8> = [0x20, 0x2C, 0x3B, 0x09, 0x0A, 0x0D]
    guard text.utf8.contains(where: separators.contains) else { return text }  // the usual case
    return String(text.trimmingSpaces().map { " ,;\t\n\r".contains($0) ? "-" : $0 })
  }

  /// The string member `key` of an object, or nil when it is missing or null.
  static func string(_ value: JSONValue, _ key: String) throws(InputError) -> String? {
    guard let member = value[key], !member.isNull else { return nil }
    guard let text = member.string else { throw InputError("'\(key)' is not a string") }
    return text
  }

  /// The string members of the array member `key` (missing or null reads as none).
  static func strings(_ value: JSONValue, _ key: String) throws(InputError) -> [String] {
    guard let member = value[key], !member.isNull else { return [] }
    guard case .array(let items) = member else { throw InputError("'\(key)' is not an array") }
    return try items.map { item throws(InputError) in
      guard let text = item.string else { throw InputError("'\(key)' holds a non-string") }
      return text
    }
  }
}

/// The element loop every JSON source shares: a malformed element or one its source cannot use
/// becomes a ``RowError`` on its line, and reading goes on.
class JSONSourceRecords: ForeignRecords {
  let elements: JSONElementReader
  let context: ForeignImportContext
  let ids: ForeignRecordIDs
  var notices: [String] = []

  init(_ elements: JSONElementReader, source: ForeignSource, context: ForeignImportContext) {
    self.elements = elements
    self.context = context
    ids = ForeignRecordIDs(source)
  }

  func next() throws -> Result<ImportRow, RowError>? {
    while let (element, line) = try elements.next() {
      do throws(InputError) {
        if let row = try row(from: try element.get(), line: line) { return .success(row) }
      } catch {
        return .failure(RowError(line: line, message: error.message))
      }
    }
    return nil
  }

  /// The row of one element; nil for an element skipped on purpose (noted in ``notices``).
  func row(from element: JSONValue, line: Int) throws(InputError) -> ImportRow? { nil }
}
