import LifelogCore

/// The columns `lifelog export` writes and `lifelog import` reads, in this order.
public enum ExchangeColumn: String, CaseIterable, Sendable {
  case id, at, activity, kind, duration, note, quantity, unit, tags

  /// The separator between tags in the one `tags` field of a CSV row (tags never contain it).
  public static let tagSeparator: Character = ";"

  /// `id,at,activity,...` for messages.
  public static let list = allCases.map(\.rawValue).joined(separator: ", ")
}

/// One row of an import as read from the file, before any of it is checked.
///
/// Empty fields are nil. Only `at` and `activity` are required; everything else may be missing.
public struct ImportRow: Sendable {
  /// The line the row starts on (the header is line 1 of a CSV file).
  public var line: Int
  public var id: String?
  public var at: String?
  public var activity: String?
  public var kind: String?
  /// Seconds (`2700`) or as `add --duration` takes it (`45m`).
  public var duration: String?
  public var note: String?
  public var quantity: String?
  /// The activity's unit: given to an activity the import creates.
  public var unit: String?
  public var tags: [String] = []
  /// Where the entry came from; nil when the row does not say (the importer then names the file).
  public var source: String??

  public init(line: Int) { self.line = line }

  /// Checks every field and returns the row as it will be stored.
  ///
  /// - Parameter parser: reads `at` as `lifelog add --at` would.
  /// - Throws: ``InputError`` naming the first field that is wrong.
  public func validated(parser: TimeParser) throws(InputError) -> ValidImportRow {
    guard let activityText = activity else {
      throw InputError("The activity is missing; every row needs an activity such as 'breakfast'")
    }
    guard let at else {
      throw InputError("The time ('at') is missing; give one such as '2026-12-01T08:15:00+01:00'")
    }
    var row = ValidImportRow(
      id: try id.map(ValidImportRow.checkedID), activity: try ActivityName.validated(activityText),
      time: try parser.parseTime(at))
    row.kind = try kind.map(ActivityKind.init(parsing:))
    if let duration {
      if duration.utf8.allSatisfy({ (48...57).contains($0) }) {
        guard let seconds = Int(duration), seconds <= DurationText.maximumSeconds else {
          throw InputError("Duration '\(duration)' seconds is longer than 31 days; check the value")
        }
        row.duration = seconds
      } else {
        row.duration = try DurationText.parse(duration)
      }
    }
    row.note = try EntryFields.note(note)
    row.quantity = try quantity.map(EntryFields.quantity)
    row.unit = try unit.map(ActivityUnit.validated)
    for text in tags {
      let tag = try EntryFields.tag(text)
      if !row.tags.contains(tag) { row.tags.append(tag) }
    }
    row.source = source
    return row
  }
}

/// An import row whose fields have all been checked.
public struct ValidImportRow: Sendable {
  /// The id the row gave, lower-cased; nil when the importer derives one from the content.
  public var id: String?
  public var activity: String
  public var kind: ActivityKind?
  public var time: LoggedTime
  public var duration: Int?
  public var note: String?
  public var quantity: Double?
  public var unit: String?
  public var tags: [String] = []
  public var source: String??

  init(id: String?, activity: String, time: LoggedTime) {
    self.id = id
    self.activity = activity
    self.time = time
  }

  /// The id a row without one gets: derived from its content, so importing the same file twice
  /// finds the same ids and adds nothing.
  ///
  /// A SHA-256 of the normalized fields (activity name case-folded, the instant and its offset,
  /// duration, note, quantity, tags) shaped as a version 8 UUID. Its leading hex digits are as
  /// random-looking as a UUIDv4's, so short ids stay short (docs/design.md §2).
  ///
  /// Rows of one file equal in all those fields are told apart by `ordinal`, their place among
  /// their equals: the first keeps the id earlier versions gave every one of them (so a log that
  /// imported the file before still matches it), the others mix the ordinal in.
  public func derivedID(ordinal: Int = 1) -> String {
    var seed: [UInt8] = []
    seed.reserveCapacity(160)
    seed.append(contentsOf: "lifelog-import".utf8)
    func add(_ value: Int64) {
      for shift in stride(from: 0, to: 64, by: 8) {
        seed.append(UInt8(truncatingIfNeeded: value >> Int64(shift)))
      }
    }
    func add(_ text: String) {
      add(Int64(text.utf8.count))  // length first, so no two rows run together into one seed
      seed.append(contentsOf: text.utf8)
    }
    add(activity.lowercased())  // the key of a validated name: its spaces are already single
    add(time.instant)
    add(Int64(time.offsetMinutes))
    add(duration.map(Int64.init) ?? -1)
    add(note ?? "")
    add(quantity.map { Int64(bitPattern: $0.bitPattern) } ?? -1)
    add(tags.joined(separator: " "))
    if ordinal > 1 { add(Int64(ordinal)) }
    return UUIDText.derived(fromSeed: seed)
  }

  /// Checks an id: a UUID in its text form (`1a2b3c4d-...`), any case.
  static func checkedID(_ text: String) throws(InputError) -> String {
    let id = text.lowercased()
    guard UUIDText.isCanonical(id) else {
      throw InputError(
        "Id '\(text)' is not a lifelog id (a UUID such as '1a2b3c4d-0000-4000-8000-000000000000'); "
          + "leave the id empty to let lifelog make one")
    }
    return id
  }
}
