import LifelogCore

/// The hours a meal timeline shows: from the hour of the earliest logged meal to the hour after
/// the latest, not the whole day, so the marks are not squeezed into two thirds of the width by
/// an empty night.
///
/// Minutes here are minutes of the report day (``Meal/minuteOfDay``, 0 at `dayStartsAt`); the
/// ends fall on whole clock hours wherever the day allows. The span is at least
/// ``minimumSpan``, so one day's two meals do not stretch across the page, and ticks fall every
/// hour, or every two hours over a span longer than 12 hours.
struct TimelineAxis {
  /// The first and last minute of the report day the axis shows.
  let from: Int
  let to: Int
  /// Minutes between two ticks.
  let step: Int
  /// Where the axis begins and how wide it is, in the drawing's units.
  let left: Int
  let width: Int

  static let minimumSpan = 6 * 60

  /// The axis over the meals of `days`; the whole day when there are none.
  init(days: some Sequence<MealDay>, dayStartsAt: Int, left: Int, width: Int) {
    (self.left, self.width) = (left, width)
    var earliest = Int.max
    var latest = Int.min
    for day in days {
      for meal in day.meals {
        earliest = min(earliest, meal.minuteOfDay)
        latest = max(latest, meal.minuteOfDay)
      }
    }
    guard earliest <= latest else {
      (from, to, step) = (0, 1440, 120)
      return
    }
    // Report-day minutes that are whole clock hours: phase, phase + 60, ...
    let phase = (60 - dayStartsAt % 60) % 60
    var from = max(0, phase + Self.floorDiv(earliest - phase, 60) * 60)
    var to = min(1440, phase + Self.floorDiv(latest - phase + 59, 60) * 60)
    while to - from < Self.minimumSpan {
      if to < 1440 { to = min(1440, to + 60) }
      if to - from < Self.minimumSpan && from > 0 { from = max(0, from - 60) }
    }
    let step = to - from > 12 * 60 ? 120 : 60
    if (to - from) % step != 0 {
      if from >= 60 { from -= 60 } else if to + 60 <= 1440 { to += 60 }
    }
    (self.from, self.to, self.step) = (from, to, step)
  }

  /// x of a minute of the report day; minutes outside the axis are held at its ends.
  func x(_ minute: Int) -> Int {
    left + (min(max(minute, from), to) - from) * width / max(to - from, 1)
  }

  /// The minutes of the report day a tick marks, from one end to the other.
  var ticks: StrideThrough<Int> { stride(from: from, through: to, by: step) }

  /// The middle of the axis, where a day without meals says so.
  var middle: Int { left + width / 2 }

  private static func floorDiv(_ value: Int, _ divisor: Int) -> Int {
    value >= 0 ? value / divisor : (value - divisor + 1) / divisor
  }
}
