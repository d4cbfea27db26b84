import LifelogCore

/// A reproducible year of one person's log, about 20 entries a day (some 7,300 in all): six meals,
/// water, coffee, a vitamin, a weigh-in, a mood note, walks, runs and a night's sleep, logged at
/// +01:00 in winter, +02:00 in summer and -05:00 during a week's trip.
enum SampleYear {
  /// The activities the year uses beyond the defaults, with their targets.
  static let activities: [(name: String, kind: ActivityKind, unit: String?, target: String?)] = [
    ("water", .other, "glasses", "8 glasses/day"),
    ("coffee", .other, nil, nil),
    ("vitamin d", .medication, nil, "1 times/day"),
    ("weight", .other, "kg", nil),
    ("mood", .other, nil, nil),
  ]

  /// Creates the activities in `store` (walk and run get targets) and returns the year's entries,
  /// the last day being `lastDay`.
  static func prepare(
    _ store: LogStore, lastDay: CivilDate, seed: UInt64 = 0x7EA2
  ) throws -> [NewEntry] {
    for activity in activities {
      try store.addActivity(
        named: activity.name, kind: activity.kind, unit: activity.unit,
        target: try activity.target.map(Target.init(parsing:)))
    }
    try store.updateActivity(named: "walk", target: .some(try Target(parsing: "150 min/week")))
    try store.updateActivity(
      named: "run", unit: .some("km"), target: .some(try Target(parsing: "10 km/week")))
    var random = SplitMix64(seed: seed)
    var entries: [NewEntry] = []
    for index in 0..<365 {
      let date = lastDay.adding(days: index - 364)
      entries += day(date, index: index, random: &random)
    }
    return entries
  }

  /// How many of the year's entries are meals.
  static func mealCount(_ entries: [NewEntry]) -> Int {
    let meals = Set(
      ["breakfast", "lunch", "dinner", "snack"].map { ActivityName.derivedID(for: $0) })
    return entries.filter { meals.contains($0.activityID) }.count
  }

  private static func day(_ date: CivilDate, index: Int, random: inout SplitMix64) -> [NewEntry] {
    let offset = (200..<207).contains(index) ? -300 : (4...10).contains(date.month) ? 120 : 60
    var entries: [NewEntry] = []
    func add(
      _ name: String, _ hour: Int, _ minute: Int, jitter: Int, duration: Int? = nil,
      quantity: Double? = nil,
      note: String? = nil
    ) {
      let wall = LocalDateTime(date: date, hour: hour, minute: minute).secondsAsIfUTC
      let shift = jitter > 0 ? Int64(Int.random(in: -jitter...jitter, using: &random) * 60) : 0
      entries.append(
        NewEntry(
          id: UUIDText.random(using: &random), activityID: ActivityName.derivedID(for: name),
          time: LoggedTime(instant: wall + shift - Int64(offset * 60), offsetMinutes: offset),
          duration: duration, note: note, quantity: quantity))
    }
    add(
      "weight", 7, 0, jitter: 10,
      quantity: 70 + Double(Int.random(in: -20...20, using: &random)) / 10)
    add("breakfast", 7, 30, jitter: 30, note: "oatmeal, coffee")
    add("vitamin d", 8, 0, jitter: 5)
    add("coffee", 8, 30, jitter: 20)
    for hour in [9, 10, 11, 13, 15, 16, 17, 19] { add("water", hour, 0, jitter: 30, quantity: 1) }
    add("snack", 10, 0, jitter: 40, note: "apple")
    add("lunch", 13, 0, jitter: 40, note: "soup, bread")
    add("coffee", 14, 0, jitter: 20)
    add("snack", 16, 0, jitter: 60, note: "yogurt")
    if index % 7 < 5 {
      add("walk", 17, 0, jitter: 30, duration: 60 * Int.random(in: 30...60, using: &random))
    }
    if index % 7 == 2 || index % 7 == 5 {
      add("run", 18, 0, jitter: 15, duration: 30 * 60, quantity: 5)
    }
    add("dinner", 19, 0, jitter: 40, note: "fish, rice")
    add("mood", 21, 0, jitter: 30, note: "good")
    if index % 3 != 0 { add("snack", 21, 30, jitter: 20, note: "tea and toast") }
    add("sleep", 23, 0, jitter: 30, duration: 60 * Int.random(in: 420...510, using: &random))
    return entries
  }
}
