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
    var text = ""
    render { text += $0 }
    return text
  }

  /// The same, handed to `write` a piece (about 64 KiB) at a time, so a long report is never
  /// held whole.
  func render(_ write: (String) -> Void) {
    var text = CSVText.row(Self.header)
    defer { write(text) }
    guard let meals = content.meals else { return }
    // Rows go day by day (the entries come by day), so a travel day cannot reorder them.
    let entriesByDay = content.entriesByDay
    for (index, day) in meals.days.enumerated() {
      if text.utf8.count >= 1 << 16 {
        write(text)
        text = ""
      }
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
