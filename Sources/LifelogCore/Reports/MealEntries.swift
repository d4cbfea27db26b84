/// The meal entries of a report, held column by column: what the diary shows of each (activity,
/// note, id, duration, quantity) in a few packed arrays instead of an ``Entry`` of some 170
/// bytes, so a diary over a million meals fits in tens of megabytes.
///
/// Ids and notes are held only once one is not empty (a report reads them only for the formats
/// that show them); the time is the meal's own (``Meal/time``).
public struct MealEntries: Sendable {
  /// One activity of the report's meals.
  private struct ActivityFields: Sendable {
    let id: String
    let name: String
    let kind: ActivityKind
    let unit: String?
  }

  private var activities: [ActivityFields] = []
  private var activityIndexByID: [String: Int32] = [:]
  private var activityOf: [Int32] = []
  private var ids: [String] = []
  /// Per entry, its note's place in ``noteTexts``, or -1 for none.
  private var notes: [Int32] = []
  /// The notes, each text once while ``noteIndex`` still takes new ones (the same note, such as
  /// "coffee", comes back often in a log); after that every new note gets a place of its own.
  private var noteTexts: [String] = []
  private var noteIndex: [String: Int32] = [:]
  /// Whether ``ids`` (``notes``) is held: from the first entry with an id (a note) on, and
  /// filled in for the entries before it.
  private var holdsIDs = false
  private var holdsNotes = false
  /// `Int64.min` for none.
  private var durations: [Int64] = []
  /// NaN for none (a stored quantity is always finite, ``EntryFields/stored(quantity:)``).
  private var quantities: [Double] = []

  /// Whether durations and quantities are held (only CSV shows them for meals).
  private let keepsAmounts: Bool

  /// - Parameter keepsAmounts: hold each entry's duration and quantity; without it
  ///   ``entry(at:time:)`` gives neither.
  public init(keepsAmounts: Bool = true) { self.keepsAmounts = keepsAmounts }

  /// How many entries are held.
  public var count: Int { activityOf.count }

  /// Holds `entry`'s fields (not its time: the meal has it).
  mutating func append(_ entry: Entry) {
    let index = count
    if let last = activityOf.last, activities[Int(last)].id == entry.activityID {
      activityOf.append(last)
    } else if let known = activityIndexByID[entry.activityID] {
      activityOf.append(known)
    } else {
      let new = Int32(clamping: activities.count)
      activities.append(
        ActivityFields(
          id: entry.activityID, name: entry.activityName, kind: entry.kind, unit: entry.unit))
      activityIndexByID[entry.activityID] = new
      activityOf.append(new)
    }
    if !entry.id.isEmpty && !holdsIDs {
      holdsIDs = true
      ids = Array(repeating: "", count: index)
    }
    if holdsIDs { ids.append(entry.id) }
    if entry.note != nil && !holdsNotes {
      holdsNotes = true
      notes = Array(repeating: -1, count: index)
    }
    if holdsNotes { notes.append(entry.note.map { place(of: $0) } ?? -1) }
    if keepsAmounts {
      durations.append(entry.duration.map { Int64($0) } ?? Int64.min)
      quantities.append(entry.quantity ?? .nan)
    }
  }

  /// The most distinct notes looked up before new ones are simply appended (bounds the index).
  static let maximumIndexedNotes = 65_536

  /// Where `note` is in ``noteTexts``, adding it.
  private mutating func place(of note: String) -> Int32 {
    if let known = noteIndex[note] { return known }
    let new = Int32(clamping: noteTexts.count)
    noteTexts.append(note)
    if noteIndex.count < Self.maximumIndexedNotes { noteIndex[note] = new }
    return new
  }

  /// The entry at `index` (``Meal/entryIndex``), logged at `time`, without tags or source.
  public func entry(at index: Int, time: LoggedTime) -> Entry {
    let activity = activities[Int(activityOf[index])]
    let duration = keepsAmounts ? durations[index] : Int64.min
    let quantity = keepsAmounts ? quantities[index] : .nan
    return Entry(
      id: holdsIDs ? ids[index] : "", activityID: activity.id, activityName: activity.name,
      kind: activity.kind, unit: activity.unit, time: time,
      duration: duration == Int64.min ? nil : Int(duration),
      note: note(at: index), quantity: quantity.isNaN ? nil : quantity)
  }

  /// The activity name of the entry at `index`.
  public func activityName(at index: Int) -> String { activities[Int(activityOf[index])].name }

  /// The note of the entry at `index`.
  public func note(at index: Int) -> String? {
    guard holdsNotes, notes[index] >= 0 else { return nil }
    return noteTexts[Int(notes[index])]
  }
}
