import LifelogCore

/// A reproducible log of snack entries, built in memory for the store benchmarks.
///
/// Entries are spread evenly, with jitter, over the two years before a given instant (100,000
/// entries come to about one every ten minutes). Some have notes, durations, quantities or tags,
/// so every column of the `entry` table is exercised.
enum SampleLog {
  static let span: Int64 = 2 * 365 * 86_400

  static let notes = [
    "apple", "banana", "yogurt with honey", "two biscuits and tea", "handful of almonds",
    "dark chocolate, 2 squares", "carrot sticks \"with hummus\"", "rice cake",
  ]
  static let tags = ["home", "work", "travel", "late", "sweet"]

  /// `count` entries ending just before `end` (Unix seconds), the same ones for the same seed.
  static func entries(count: Int, endingAt end: Int64, seed: UInt64 = 0x11FE_1060) -> [NewEntry] {
    var random = SplitMix64(seed: seed)
    let activityID = ActivityName.derivedID(for: "snack")
    let step = max(1, span / Int64(count))
    var entries: [NewEntry] = []
    entries.reserveCapacity(count)
    for index in 0..<count {
      let instant = end - span + Int64(index) * step + Int64.random(in: 0..<step, using: &random)
      let offset = Int.random(in: 0..<10, using: &random) < 8 ? 60 : 120
      var entry = NewEntry(
        id: UUIDText.random(using: &random), activityID: activityID,
        time: LoggedTime(instant: instant, offsetMinutes: offset))
      if Int.random(in: 0..<10, using: &random) < 4 {
        entry.note = notes[Int.random(in: 0..<notes.count, using: &random)]
      }
      if Int.random(in: 0..<10, using: &random) < 2 {
        entry.duration = 60 * Int.random(in: 1...30, using: &random)
      }
      if Int.random(in: 0..<10, using: &random) < 3 {
        entry.quantity = Double(Int.random(in: 1...6, using: &random)) / 2
      }
      if Int.random(in: 0..<10, using: &random) < 3 {
        let first = Int.random(in: 0..<tags.count, using: &random)
        entry.tags = [tags[first]]
        if Bool.random(using: &random) { entry.tags.append(tags[(first + 1) % tags.count]) }
      }
      entries.append(entry)
    }
    return entries
  }
}
