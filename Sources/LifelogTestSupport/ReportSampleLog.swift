import LifelogCore

/// A fixed log for report tests: nine days in October 2026 and two in March, in Europe/Warsaw,
/// with every case the reports must get right.
///
/// * 2026-10-25, the day the clocks go back (25 hours): a 01:30 snack at +02:00 that belongs to
///   the 24th, a night's sleep across the change (8h30m slept, 23:30 to 07:00 on the clock).
/// * 2026-03-29, the day the clocks go forward (23 hours): a 01:30 snack at +01:00 that belongs
///   to the 28th, breakfast at +02:00.
/// * 2026-10-21, a day without meals.
/// * 2026-10-22 and 23, travel: entries logged at -05:00, with a 10-hour gap over the flight.
/// * 01:30 snacks on the 20th, the 24th and 2026-03-29.
///
/// Ids are fixed (`e0000001-…`) so output can be compared byte for byte.
public enum ReportSampleLog {
  /// "Now" for the tests: Tuesday 2026-10-27, 21:00 in Warsaw.
  public static let now = "2026-10-27T21:00:00+01:00"
  public static let zone = "Europe/Warsaw"

  /// One sample entry: activity, ISO 8601 time, note, duration, quantity.
  public typealias Row = (
    activity: String, at: String, note: String?, duration: Int?, quantity: Double?
  )

  public static let october: [Row] = [
    // Mon 10-19: every gap within 3 hours.
    ("breakfast", "2026-10-19T07:30:00+02:00", "oatmeal, coffee", nil, nil),
    ("vitamin d", "2026-10-19T08:00:00+02:00", nil, nil, nil),
    ("snack", "2026-10-19T10:00:00+02:00", "apple", nil, nil),
    ("lunch", "2026-10-19T13:00:00+02:00", "lentil soup", nil, nil),
    ("walk", "2026-10-19T15:00:00+02:00", "around the park", 45 * 60, nil),
    ("snack", "2026-10-19T16:00:00+02:00", "yogurt", nil, nil),
    ("dinner", "2026-10-19T19:00:00+02:00", "salmon, rice", nil, nil),
    ("sleep", "2026-10-19T23:00:00+02:00", nil, 7 * 3600 + 1800, nil),
    // Tue 10-20: two long gaps, and a 01:30 snack and a 02:00 sleep that belong to the 20th.
    ("breakfast", "2026-10-20T08:00:00+02:00", "toast", nil, nil),
    ("vitamin d", "2026-10-20T08:05:00+02:00", nil, nil, nil),
    ("lunch", "2026-10-20T12:30:00+02:00", "pasta", nil, nil),
    ("snack", "2026-10-20T15:00:00+02:00", "nuts", nil, nil),
    ("dinner", "2026-10-20T19:30:00+02:00", "soup | bread", nil, nil),
    ("snack", "2026-10-21T01:30:00+02:00", "crackers, \"couldn't sleep\"", nil, nil),
    ("sleep", "2026-10-21T02:00:00+02:00", nil, 5 * 3600 + 1800, nil),
    // Wed 10-21: no meals.
    ("vitamin d", "2026-10-21T09:00:00+02:00", nil, nil, nil),
    ("walk", "2026-10-21T12:00:00+02:00", "long walk\nfasting day", 60 * 60, nil),
    // Thu 10-22: flying west; lunch and dinner logged at -05:00.
    ("breakfast", "2026-10-22T06:30:00+02:00", "coffee at the airport", nil, nil),
    ("snack", "2026-10-22T09:00:00+02:00", "on the plane", nil, nil),
    ("lunch", "2026-10-22T12:00:00-05:00", "sandwich", nil, nil),
    ("dinner", "2026-10-22T18:30:00-05:00", "burger", nil, nil),
    ("sleep", "2026-10-22T22:30:00-05:00", nil, 8 * 3600, nil),
    // Fri 10-23: a day at -05:00, on rhythm; a night flight home.
    ("breakfast", "2026-10-23T07:00:00-05:00", "pancakes", nil, nil),
    ("snack", "2026-10-23T09:30:00-05:00", "banana", nil, nil),
    ("lunch", "2026-10-23T12:00:00-05:00", "salad", nil, nil),
    ("snack", "2026-10-23T14:30:00-05:00", "coffee, cookie", nil, nil),
    ("walk", "2026-10-23T16:00:00-05:00", "city walk", 50 * 60, nil),
    ("dinner", "2026-10-23T17:30:00-05:00", "steak", nil, nil),
    // Sat 10-24: home; a 01:30 snack before the clocks go back belongs to the 24th.
    ("breakfast", "2026-10-24T10:00:00+02:00", "omelette", nil, nil),
    ("vitamin d", "2026-10-24T10:05:00+02:00", nil, nil, nil),
    ("lunch", "2026-10-24T13:00:00+02:00", "dumplings", nil, nil),
    ("snack", "2026-10-24T16:00:00+02:00", "plum cake", nil, nil),
    ("dinner", "2026-10-24T19:30:00+02:00", "pierogi", nil, nil),
    ("sleep", "2026-10-24T23:30:00+02:00", "clocks go back", 8 * 3600 + 1800, nil),
    ("snack", "2026-10-25T01:30:00+02:00", "milk and honey", nil, nil),
    // Sun 10-25: 25 hours long; from 03:00 the offset is +01:00.
    ("breakfast", "2026-10-25T08:00:00+01:00", "porridge", nil, nil),
    ("run", "2026-10-25T10:00:00+01:00", "easy run", 30 * 60, 5),
    ("lunch", "2026-10-25T12:30:00+01:00", "chicken soup", nil, nil),
    ("snack", "2026-10-25T15:00:00+01:00", "apple", nil, nil),
    ("dinner", "2026-10-25T18:00:00+01:00", "risotto", nil, nil),
    ("sleep", "2026-10-25T22:30:00+01:00", nil, 8 * 3600, nil),
    // Mon 10-26: on rhythm.
    ("breakfast", "2026-10-26T07:00:00+01:00", "oatmeal", nil, nil),
    ("vitamin d", "2026-10-26T07:05:00+01:00", nil, nil, nil),
    ("snack", "2026-10-26T09:30:00+01:00", "pear", nil, nil),
    ("lunch", "2026-10-26T12:00:00+01:00", "tomato soup", nil, nil),
    ("snack", "2026-10-26T14:30:00+01:00", "yogurt", nil, nil),
    ("walk", "2026-10-26T15:00:00+01:00", nil, 40 * 60, nil),
    ("dinner", "2026-10-26T17:30:00+01:00", "fish", nil, nil),
    ("snack", "2026-10-26T20:00:00+01:00", "tea and toast", nil, nil),
    ("sleep", "2026-10-26T23:00:00+01:00", nil, 7 * 3600, nil),
    // Tue 10-27 ("today").
    ("breakfast", "2026-10-27T07:30:00+01:00", "eggs", nil, nil),
    ("vitamin d", "2026-10-27T07:35:00+01:00", nil, nil, nil),
    ("lunch", "2026-10-27T12:00:00+01:00", "leftovers", nil, nil),
    ("run", "2026-10-27T17:00:00+01:00", nil, 35 * 60, 6.5),
    ("dinner", "2026-10-27T18:00:00+01:00", "stew", nil, nil),
  ]

  public static let march: [Row] = [
    // Sat 03-28, and a 01:30 snack at +01:00 (before the jump) that belongs to it.
    ("breakfast", "2026-03-28T08:00:00+01:00", "muesli", nil, nil),
    ("lunch", "2026-03-28T13:00:00+01:00", "soup", nil, nil),
    ("dinner", "2026-03-28T19:00:00+01:00", "pizza", nil, nil),
    ("snack", "2026-03-29T01:30:00+01:00", "cheese", nil, nil),
    ("sleep", "2026-03-29T01:45:00+01:00", "clocks go forward", 6 * 3600, nil),
    // Sun 03-29: 23 hours long; from 03:00 the offset is +02:00.
    ("breakfast", "2026-03-29T09:00:00+02:00", "pancakes", nil, nil),
    ("lunch", "2026-03-29T12:00:00+02:00", "salad", nil, nil),
    ("walk", "2026-03-29T13:00:00+02:00", nil, 30 * 60, nil),
    ("snack", "2026-03-29T14:30:00+02:00", "apple", nil, nil),
    ("dinner", "2026-03-29T18:00:00+02:00", "goulash", nil, nil),
  ]

  /// Creates the sample log at `path` (`:memory:` is not useful: the CLI opens it by path) and
  /// returns the store.
  ///
  /// Activities: the defaults, `walk` with a target of 150 min/week, `run` in km with 10 km/week,
  /// and `vitamin d` (medication) with 1 time/day; the name setting is `Ada`.
  @discardableResult
  public static func build(at path: String, rows: [Row] = october + march) throws -> LogStore {
    let store = try LogStore(path: path)
    try store.updateActivity(named: "walk", target: .some(try Target(parsing: "150 min/week")))
    try store.updateActivity(
      named: "run", unit: .some("km"), target: .some(try Target(parsing: "10 km/week")))
    try store.addActivity(
      named: "vitamin d", kind: .medication, target: try Target(parsing: "1 times/day"))
    try store.set(.name, to: "Ada")
    var ids: [String: String] = [:]
    for activity in try store.activities() { ids[activity.name] = activity.id }
    var entries: [NewEntry] = []
    for (index, row) in rows.enumerated() {
      let time = try ISO8601Time.parse(row.at)
      entries.append(
        NewEntry(
          id: id(index + 1), activityID: ids[row.activity] ?? "", time: time,
          duration: row.duration,
          note: row.note, quantity: row.quantity))
    }
    try store.add(contentsOf: entries)
    return store
  }

  /// `e0000001-0000-4000-8000-000000000000` for 1.
  public static func id(_ number: Int) -> String {
    let hex = String(number, radix: 16)
    return "e" + String(repeating: "0", count: 7 - hex.count) + hex + "-0000-4000-8000-000000000000"
  }
}
