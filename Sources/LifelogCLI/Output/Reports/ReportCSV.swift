import LifelogCore

/// Reports as RFC 4180 CSV: one row per entry, with its report day and, for a meal, its gap.
///
/// The meal report also gives each day without meals a row of its own (only its date), so no day
/// goes missing.
struct ReportCSV {
  let content: ReportContent

  static let header = [
    "date", "id", "at", "activity", "kind", "duration", "quantity", "unit", "note", "gap_minutes",
    "gap",
    "flagged",
  ]

  func render() -> String {
    var text = CSVText.row(Self.header)
    guard let meals = content.meals else { return text }
    // Entries arrive oldest first; rows go day by day, so a travel day cannot reorder them.
    let firstDay = content.range.from.daysSinceEpoch
    var entriesByDay = [[Entry]](repeating: [], count: content.range.dayCount)
    if content.kind != .meals {
      for entry in content.entries {
        entriesByDay[Int(content.settings.dayNumber(of: entry.time) - firstDay)].append(entry)
      }
    }
    for (index, day) in meals.days.enumerated() {
      if day.meals.isEmpty && content.kind != .activity {
        text += CSVText.row([day.date.description] + blanks)
      }
      guard content.kind != .meals else {
        for meal in day.meals { text += row(meals.entry(of: meal), day: day, meal: meal) }
        continue
      }
      // The day's meal entries come in the same order as its meals.
      var next = 0
      for entry in entriesByDay[index] {
        if entry.kind == .meal, next < day.meals.count {
          text += row(entry, day: day, meal: day.meals[next])
          next += 1
        } else {
          text += row(entry, day: day, meal: nil)
        }
      }
    }
    return text
  }

  private var blanks: [String] { Array(repeating: "", count: Self.header.count - 1) }

  private func row(_ entry: Entry, day: MealDay, meal: Meal?) -> String {
    var gapMinutes = ""
    var gap = ""
    var flagged = ""
    if let meal {
      flagged = meal.isFlagged ? "true" : "false"
      if let minutes = meal.gapMinutes {
        (gapMinutes, gap) = (String(minutes), "daytime")
      } else if let minutes = day.overnightGapMinutes {
        (gapMinutes, gap) = (String(minutes), "overnight")
      } else {
        gap = "first"
      }
    }
    return CSVText.row([
      day.date.description, entry.id, entry.time.iso8601, entry.activityName, entry.kind.rawValue,
      entry.duration.map(String.init) ?? "", entry.quantity.map(JSONText.number) ?? "",
      entry.unit ?? "",
      entry.note ?? "", gapMinutes, gap, flagged,
    ])
  }
}
