import LifelogCore

/// Reports as RFC 4180 CSV: one row per entry, with its report day and, for a meal, its gap; text
/// that would start a formula is guarded (``FormulaGuard``).
///
/// The meal report also gives each day without meals a row of its own (only its date), so no day
/// goes missing. Rows are written a day at a time as the days close (``MealDayStream``), straight
/// into bytes, so a report listing a million entries holds a few days of them.
struct ReportCSV {
  let kind: ReportKind

  static let header = [
    "date", "id", "at", "activity", "kind", "duration", "quantity", "unit", "note", "gap_minutes",
    "gap",
    "flagged", "gap_flag",
  ]

  /// The header row.
  func header(_ text: inout TextBytes) {
    for (index, field) in Self.header.enumerated() {
      if index > 0 { text.append(byte: UInt8(ascii: ",")) }
      text.csvField(field)
    }
    text.append("\r\n")
  }

  /// The rows of `closed`, oldest first: the meal report's meals (or the day alone, without
  /// meals), or every entry of the day for the other kinds.
  ///
  /// Rows go day by day, so a travel day cannot reorder them.
  func day(_ closed: ClosedMealDay, _ text: inout TextBytes) {
    let day = closed.day
    if day.meals.isEmpty && kind != .activity {
      text.date(day.date)
      for _ in 1..<Self.header.count { text.append(byte: UInt8(ascii: ",")) }
      text.append("\r\n")
    }
    guard kind != .meals else {
      for meal in day.meals { row(closed.entry(of: meal), day: day, meal: meal, &text) }
      return
    }
    var next = 0
    for (index, entry) in closed.entries.enumerated() {
      if next < day.meals.count, day.meals[next].entryIndex == index {
        row(entry, day: day, meal: day.meals[next], &text)
        next += 1
      } else {
        row(entry, day: day, meal: nil, &text)
      }
    }
  }

  /// One entry's row; the date, the time and the numbers never need quoting.
  private func row(_ entry: Entry, day: MealDay, meal: Meal?, _ text: inout TextBytes) {
    let comma = UInt8(ascii: ",")
    text.date(day.date)
    text.append(byte: comma)
    text.csvField(entry.id)
    text.append(byte: comma)
    text.iso8601(entry.time)
    text.append(byte: comma)
    text.csvText(entry.activityName)
    text.append(byte: comma)
    text.csvField(entry.kind.rawValue)
    text.append(byte: comma)
    if let duration = entry.duration { text.number(duration) }
    text.append(byte: comma)
    if let quantity = entry.quantity { text.csvField(JSONText.number(quantity)) }
    text.append(byte: comma)
    if let unit = entry.unit { text.csvText(unit) }
    text.append(byte: comma)
    if let note = entry.note { text.csvText(note) }
    text.append(byte: comma)
    if let meal {
      if let minutes = meal.gapMinutes {
        text.number(minutes)
        text.append(",daytime,")
      } else if let minutes = day.overnightGapMinutes {
        text.number(minutes)
        text.append(",overnight,")
      } else {
        text.append(",first,")
      }
      text.append(meal.isFlagged ? "true," : "false,")
      if let flag = meal.gapFlag { text.append(flag.code) }
    } else {
      text.append(",,,")
    }
    text.append("\r\n")
  }
}
