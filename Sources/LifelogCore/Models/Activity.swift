/// Something a person logs: a meal (`breakfast`), exercise (`walk`), `sleep`, a medication.
public struct Activity: Hashable, Sendable {
  /// Stable id derived from the name it was created with (see ``ActivityName/derivedID(for:attempt:)``).
  public var id: String
  /// The name as typed; matched case-insensitively.
  public var name: String
  public var kind: ActivityKind
  /// The unit quantities are measured in (`km`, `kcal`), if any.
  public var unit: String?
  /// A goal such as 150 min per week, if any.
  public var target: Target?
  /// Archived activities keep their entries but are hidden from suggestions and refuse new entries.
  public var archived: Bool

  public init(
    id: String, name: String, kind: ActivityKind, unit: String? = nil, target: Target? = nil,
    archived: Bool = false
  ) {
    self.id = id
    self.name = name
    self.kind = kind
    self.unit = unit
    self.target = target
    self.archived = archived
  }

  /// The activities every new database starts with (docs/design.md §2).
  public static let defaults: [(name: String, kind: ActivityKind)] = [
    ("breakfast", .meal), ("lunch", .meal), ("dinner", .meal), ("snack", .meal),
    ("walk", .exercise), ("run", .exercise), ("workout", .exercise), ("sleep", .sleep),
  ]
}

/// Rules for activity names: what is allowed, how names are compared, how ids are derived.
public enum ActivityName {
  /// The longest name accepted.
  public static let maximumLength = 64

  /// Checks a name as typed and returns it trimmed, with runs of spaces collapsed.
  public static func validated(_ text: String) throws(InputError) -> String {
    if isPlainASCIIName(text) { return text }  // the common case, checked without allocating
    let name = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    guard !name.isEmpty else {
      throw InputError("Activity name is empty; give a name such as 'tea'")
    }
    guard name.count <= maximumLength else {
      throw InputError(
        "Activity name is longer than \(maximumLength) characters; use a shorter name")
    }
    guard !name.hasPrefix("-") else {
      throw InputError("Activity name '\(name)' starts with '-'; names cannot look like options")
    }
    guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw InputError("Activity name contains a control character; use letters, digits and spaces")
    }
    return name
  }

  /// Whether `text` is already a valid name in printable ASCII: single spaces between words,
  /// none at either end, no leading `-`, not too long.
  private static func isPlainASCIIName(_ text: String) -> Bool {
    let utf8 = text.utf8
    guard let first = utf8.first, let last = utf8.last, utf8.count <= maximumLength,
      first != UInt8(ascii: " "), first != UInt8(ascii: "-"), last != UInt8(ascii: " ")
    else { return false }
    var previous: UInt8 = 0
    for byte in utf8 {
      guard (0x20...0x7E).contains(byte), !(byte == 0x20 && previous == 0x20) else { return false }
      previous = byte
    }
    return true
  }

  /// The form names are compared in: case-folded, so `Breakfast` and `breakfast` are one activity.
  public static func key(_ name: String) -> String {
    if isPlainASCIIName(name) { return name.lowercased() }  // already one space between words
    return name.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      .joinedText(separator: " ").lowercased()
  }

  /// The id an activity created under `name` gets.
  ///
  /// Derived from the name, so the same new activity created on two machines that have not yet
  /// synced is one activity, not two. `attempt` > 0 gives the fallback ids used when a renamed
  /// activity already holds the first one.
  public static func derivedID(for name: String, attempt: Int = 0) -> String {
    let seed = "lifelog-activity:" + key(name) + (attempt == 0 ? "" : "#\(attempt)")
    return UUIDText.derived(fromSeed: Array(seed.utf8))
  }
}
