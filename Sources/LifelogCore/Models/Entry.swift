/// One logged thing: a meal eaten, a walk taken, a night slept.
public struct Entry: Hashable, Sendable {
  public var id: String
  public var activityID: String
  /// The activity's current name (joined in when read).
  public var activityName: String
  /// The activity's kind (joined in when read).
  public var kind: ActivityKind
  /// The activity's unit, which ``quantity`` is measured in (joined in when read).
  public var unit: String?
  public var time: LoggedTime
  /// Seconds, if the entry has a length.
  public var duration: Int?
  public var note: String?
  public var quantity: Double?
  public var tags: [String]
  /// Where an imported entry came from.
  public var source: String?
  public var deleted: Bool

  public init(
    id: String, activityID: String, activityName: String, kind: ActivityKind, unit: String? = nil,
    time: LoggedTime, duration: Int? = nil, note: String? = nil, quantity: Double? = nil,
    tags: [String] = [], source: String? = nil, deleted: Bool = false
  ) {
    self.id = id
    self.activityID = activityID
    self.activityName = activityName
    self.kind = kind
    self.unit = unit
    self.time = time
    self.duration = duration
    self.note = note
    self.quantity = quantity
    self.tags = tags
    self.source = source
    self.deleted = deleted
  }

  /// The first eight hex digits of the id, as shown to people.
  public var shortID: String { UUIDText.short(id) }
}

/// The fields of a new entry, checked by ``EntryFields/validated()`` before anything is written.
public struct NewEntry: Sendable {
  public var id: String
  public var activityID: String
  public var time: LoggedTime
  public var duration: Int?
  public var note: String?
  public var quantity: Double?
  public var tags: [String]
  public var source: String?

  public init(
    id: String = UUIDText.random(), activityID: String, time: LoggedTime, duration: Int? = nil,
    note: String? = nil, quantity: Double? = nil, tags: [String] = [], source: String? = nil
  ) {
    self.id = id
    self.activityID = activityID
    self.time = time
    self.duration = duration
    self.note = note
    self.quantity = quantity
    self.tags = tags
    self.source = source
  }
}

/// The changes `lifelog edit` makes to one entry; nil leaves a field as it is.
public struct EntryChanges: Sendable {
  public var activityID: String?
  public var time: LoggedTime?
  /// `.some(nil)` clears the duration.
  public var duration: Int??
  /// `.some(nil)` clears the note.
  public var note: String??
  /// `.some(nil)` clears the quantity.
  public var quantity: Double??
  public var tags: [String]?

  public init() {}

  public var isEmpty: Bool {
    activityID == nil && time == nil && duration == nil && note == nil && quantity == nil
      && tags == nil
  }
}

/// The rules every entry field must meet, wherever it comes from (typed, edited, imported).
public enum EntryFields {
  /// The longest note accepted, in characters.
  public static let maximumNoteLength = 10_000
  public static let maximumTagLength = 64
  /// The largest quantity accepted: far above any real count (steps in a month are ~10^6), and
  /// small enough that a year of sums stays exact in a `Double` and fits an `Int64` when a report
  /// rounds it.
  public static let maximumQuantity: Double = 1_000_000_000

  /// Checks a note; an empty note is stored as no note.
  public static func note(_ text: String?) throws(InputError) -> String? {
    guard let text, !text.isEmpty else { return nil }
    guard text.count <= maximumNoteLength else {
      throw InputError(
        "Note is \(text.count) characters long; the limit is \(maximumNoteLength), so shorten it")
    }
    return text
  }

  /// Parses a quantity: a finite number from 0 to ``maximumQuantity``.
  public static func quantity(_ text: String) throws(InputError) -> Double {
    guard let value = Double(text.trimmingSpaces()), value.isFinite else {
      throw InputError("Cannot read quantity '\(text)'; give a number such as '2' or '0.5'")
    }
    guard value >= 0 else {
      throw InputError("Quantity cannot be negative: '\(text)'; give a number of 0 or more")
    }
    guard value <= maximumQuantity else {
      throw InputError("Quantity '\(text)' is larger than 1000000000; check the value")
    }
    return value
  }

  /// Whether a quantity from elsewhere (a synced row, the log itself) is in range.
  public static func isValidQuantity(_ value: Double) -> Bool {
    value.isFinite && value >= 0 && value <= maximumQuantity
  }

  /// Whether a duration in seconds from elsewhere is in range: 0 to ``DurationText/maximumSeconds``.
  public static func isValidDuration(_ seconds: Int64) -> Bool {
    seconds >= 0 && seconds <= Int64(DurationText.maximumSeconds)
  }

  /// Refuses a duration or quantity out of range before it is stored: the parsers already hold
  /// typed and imported values to these ranges, and a value stored outside them would be read as
  /// absent (``stored(duration:)``) while it still syncs.
  public static func checkRanges(duration: Int?, quantity: Double?) throws(InputError) {
    if let duration, !isValidDuration(Int64(duration)) {
      throw InputError(
        "Duration \(duration) seconds is not from 0 to \(DurationText.maximumSeconds) (31 days)")
    }
    if let quantity, !isValidQuantity(quantity) {
      throw InputError("Quantity \(quantity) is not a number from 0 to 1000000000")
    }
  }

  /// A duration read from the log, or nil when it is out of range (merged by a lifelog that did
  /// not check synced values): reports sum durations, so one huge value must not reach them.
  public static func stored(duration: Int64?) -> Int? {
    guard let duration, isValidDuration(duration) else { return nil }
    return Int(duration)
  }

  /// A quantity read from the log, or nil when it is out of range (see ``stored(duration:)``).
  public static func stored(quantity: Double?) -> Double? {
    guard let quantity, isValidQuantity(quantity) else { return nil }
    return quantity
  }

  /// Whether a tag from elsewhere keeps the rules of ``tag(_:)`` exactly as it is.
  public static func isValidTag(_ text: String) -> Bool {
    (try? tag(text)) == text
  }

  /// Checks a tag: one word, no commas or semicolons (they separate tags in CSV).
  public static func tag(_ text: String) throws(InputError) -> String {
    let tag = text.trimmingSpaces()
    guard !tag.isEmpty else { throw InputError("Tag is empty; give a word such as 'home'") }
    guard tag.count <= maximumTagLength else {
      throw InputError("Tag '\(tag.prefix(20))…' is longer than \(maximumTagLength) characters")
    }
    guard
      !tag.contains(where: { $0 == " " || $0 == "," || $0 == ";" || $0.isNewline || $0 == "\t" })
    else {
      throw InputError("Tag '\(tag)' contains a space, comma or semicolon; give one word per --tag")
    }
    return tag
  }
}
