import LifelogCore
import LifelogTestSupport
import Testing

/// ``MealDayStream`` (CSV and JSON, a day at a time) must give the days, entries and summary
/// that the held diary (``MealReport``, text and HTML) gives, on logs whose entries come out of
/// day order: travel between offsets up to ±18 hours, several entries at one instant, days
/// starting at odd times.
@Suite struct MealDayStreamTests {
  static let seed: UInt64 = 0x5EED_1414

  /// Offsets a random log moves between, in minutes: the widest, and ones that cross days.
  static let offsets = [-1080, -600, -300, 0, 60, 120, 345, 840, 1080]

  /// A log of `count` random entries over about 40 days from 2026-10-01, most of them meals.
  private static func randomLog(count: Int, random: inout SplitMix64) throws -> LogStore {
    let store = try ReportSampleLog.build(at: ":memory:", rows: [])
    let activities = try store.activities()
    let meals = activities.filter { $0.kind == .meal }.map(\.id)
    let others = activities.filter { $0.kind != .meal }.map(\.id)
    var instant = TestTime.instant("2026-10-01T00:00:00+00:00")
    var offset = 60
    var entries: [NewEntry] = []
    var numbers = Set<Int>()
    for index in 0..<count {
      if Int.random(in: 0..<40, using: &random) == 0 {
        offset = offsets.randomElement(using: &random) ?? 0
      }
      // Now and then two or three entries at one instant.
      if Int.random(in: 0..<8, using: &random) != 0 {
        instant += Int64.random(in: 60...(9 * 3600), using: &random)
      }
      let isMeal = Int.random(in: 0..<4, using: &random) != 0
      let activity = (isMeal ? meals : others).randomElement(using: &random) ?? ""
      // Random ids, so entries at one instant are not stored in the order of their ids.
      var number = Int.random(in: 1..<0xFFF_FFFF, using: &random)
      while !numbers.insert(number).inserted {
        number = Int.random(in: 1..<0xFFF_FFFF, using: &random)
      }
      entries.append(
        NewEntry(
          id: ReportSampleLog.id(number),
          activityID: activity, time: LoggedTime(instant: instant, offsetMinutes: offset),
          duration: isMeal ? nil : 600, note: index % 3 == 0 ? "note \(index)" : nil))
    }
    try store.add(contentsOf: entries)
    return store
  }

  @Test func streamedDaysAreTheHeldDiarysDays() throws {
    print("MealDayStreamTests seed \(Self.seed)")
    var random = SplitMix64(seed: Self.seed)
    let zone = SystemTimeZone(identifier: ReportSampleLog.zone)
    for round in 0..<12 {
      let store = try Self.randomLog(count: 400, random: &random)
      let settings = ReportSettings(
        mealGapHours: [2.5, 3, 5].randomElement(using: &random) ?? 3,
        dayStartsAtMinutes: [0, 240, 1439, 690].randomElement(using: &random) ?? 0)
      let first = try day("2026-10-01").adding(days: Int.random(in: -3...20, using: &random))
      let range = try ReportRange(
        from: first, to: first.adding(days: Int.random(in: 0...30, using: &random)))
      let parts = [1, 3, 100_000].randomElement(using: &random) ?? 1
      let log = try ReportLog.read(from: store, range: range, settings: settings)
      let held = MealReport(log: log, zone: zone)
      for keepsEveryEntry in [false, true] {
        let reader = ReportEntryReader(
          store: store, range: range, settings: settings, partEntries: parts)
        var days: [ClosedMealDay] = []
        let streamed = try ReportAggregator.stream(
          ReportAggregator.Request(
            meals: true, activities: nil, grouping: .week, keepsEntries: keepsEveryEntry),
          from: reader, zone: zone
        ) { days.append($0) }
        let context = "round \(round), \(range.from)...\(range.to), parts \(parts)"
        #expect(streamed.summary == held.summary, "\(context)")
        #expect(streamed.offsets == held.offsets, "\(context)")
        try #require(days.count == held.days.count, "\(context)")
        for (closed, day) in zip(days, held.days) {
          expectSameDay(closed, day, held: held, context)
          let entries = log.entries.filter { settings.day(of: $0.time) == day.date }
          #expect(
            closed.entries == (keepsEveryEntry ? entries : entries.filter { $0.kind == .meal }),
            "\(context), \(day.date)")
        }
      }
    }
  }

  private func expectSameDay(
    _ closed: ClosedMealDay, _ day: MealDay, held: MealReport, _ context: String
  ) {
    let streamed = closed.day
    #expect(streamed.date == day.date, "\(context)")
    #expect(streamed.overnightGapMinutes == day.overnightGapMinutes, "\(context), \(day.date)")
    #expect(streamed.longestGapMinutes == day.longestGapMinutes, "\(context), \(day.date)")
    #expect(streamed.flaggedGaps == day.flaggedGaps, "\(context), \(day.date)")
    #expect(streamed.meals.count == day.meals.count, "\(context), \(day.date)")
    for (meal, heldMeal) in zip(streamed.meals, day.meals) {
      #expect(meal.time == heldMeal.time, "\(context), \(day.date)")
      #expect(meal.gapMinutes == heldMeal.gapMinutes, "\(context), \(day.date)")
      #expect(meal.isFlagged == heldMeal.isFlagged, "\(context), \(day.date)")
      #expect(meal.isAway == heldMeal.isAway, "\(context), \(day.date)")
      #expect(meal.minuteOfDay == heldMeal.minuteOfDay, "\(context), \(day.date)")
      #expect(closed.entry(of: meal) == held.entry(of: heldMeal), "\(context), \(day.date)")
    }
  }

  @Test func everyDayOfALongRangeIsHandedOnInOrder() throws {
    let store = try ReportSampleLog.build(at: ":memory:")
    let range = try ReportRange(from: try day("1990-01-01"), to: try day("2030-12-31"))
    let reader = ReportEntryReader(store: store, range: range, settings: ReportSettings())
    var next = range.from
    var count = 0
    let streamed = try ReportAggregator.stream(
      ReportAggregator.Request(meals: true, activities: nil, grouping: .week),
      from: reader, zone: SystemTimeZone(identifier: ReportSampleLog.zone)
    ) { closed in
      #expect(closed.day.date == next)
      next = next.adding(days: 1)
      count += 1
    }
    #expect(count == range.dayCount)
    let log = try ReportLog.read(from: store, range: range, settings: ReportSettings())
    let held = MealReport(log: log, zone: SystemTimeZone(identifier: ReportSampleLog.zone))
    #expect(streamed.summary == held.summary)
    #expect(streamed.summary.meals > 40)
  }
}
