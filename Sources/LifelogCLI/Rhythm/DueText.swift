import LifelogCore

/// How `lifelog due` (and `remind`'s message) say when the next meal is due.
struct DueText {
  let due: MealDue
  /// The last meal's entry, nil when no meal was logged.
  let lastMeal: Entry?
  let presenter: EntryPresenter
  /// `dayStartsAt`, for the line before the day's first meal.
  let dayStartsAt: String
  /// Every setting's value in force (remind reads its own from here).
  let values: [Setting: String]

  /// The token for a shell prompt: `1h40m` until due, `due` within the minute, `+25m` overdue,
  /// `-` with no meal logged yet.
  var short: String {
    guard let seconds = due.secondsUntilDue else { return "-" }
    if due.overdueMinutes > 0 { return "+" + DurationText.format(due.overdueMinutes * 60) }
    guard seconds >= 60 else { return "due" }
    // Rounded up: "1m" is shown until the minute it is due, never "0m".
    return DurationText.format(Int((seconds + 59) / 60) * 60)
  }

  /// The lines `lifelog due` prints.
  var lines: String {
    guard let lastMeal, let dueAt = due.dueAt else {
      return "No meals logged yet; log one with 'lifelog add breakfast'\n"
    }
    var text = "Last meal: \(lastMeal.activityName) \(presenter.when(lastMeal.time))"
    if let note = lastMeal.note { text += " \"\(note.count > 60 ? note.prefix(59) + "…" : note)\"" }
    text += " (\(ago(due.sinceMinutes ?? 0)))\n"
    let dueTime = presenter.when(due.now.instant == dueAt ? due.now : zoneTime(dueAt))
    let when = relative
    if due.isFirstOfDay {
      text +=
        "No meal yet today (days start at \(dayStartsAt)); the first is due by \(dueTime) (\(when))\n"
    } else {
      text += "Next meal due: \(dueTime) (\(when))\n"
    }
    return text
  }

  /// The message `lifelog remind` sends: one line.
  var message: String {
    guard let lastMeal, let dueAt = due.dueAt else { return "" }
    let time = presenter.when(zoneTime(dueAt))
    let last = "the last was \(lastMeal.activityName) \(ago(due.sinceMinutes ?? 0))"
    if due.overdueMinutes > 0 {
      return
        "A meal was due at \(time), \(DurationText.format(due.overdueMinutes * 60)) ago: \(last)"
    }
    guard let seconds = due.secondsUntilDue, seconds >= 60 else {
      return "A meal is due now: \(last)"
    }
    return "A meal is due at \(time), in \(short): \(last)"
  }

  /// `in 55m`, `due now`, `overdue by 25m`.
  private var relative: String {
    if due.overdueMinutes > 0 {
      return "overdue by \(DurationText.format(due.overdueMinutes * 60))"
    }
    let token = short
    return token == "due" ? "due now" : "in \(token)"
  }

  private func ago(_ minutes: Int) -> String {
    minutes < 1 ? "just now" : "\(DurationText.format(minutes * 60)) ago"
  }

  private func zoneTime(_ instant: Int64) -> LoggedTime { presenter.zone.loggedTime(at: instant) }

  /// Exactly the keys docs/cli.md gives for `due --json`: lastMeal, sinceMinutes, dueAt,
  /// overdueMinutes, mealGapHours; scripts read them, so none is renamed or dropped.
  var json: String {
    var object = JSONObjectWriter()
    if let lastMeal {
      var meal = JSONObjectWriter()
      meal.add("id", lastMeal.id)
      meal.add("at", lastMeal.time.iso8601)
      meal.add("activity", lastMeal.activityName)
      meal.add("note", lastMeal.note)
      object.addRaw("lastMeal", meal.result)
    } else {
      object.addRaw("lastMeal", "null")
    }
    object.add("sinceMinutes", due.sinceMinutes)
    object.add("dueAt", due.dueAt.map { zoneTime($0).iso8601 })
    object.add("overdueMinutes", due.overdueMinutes)
    object.add("mealGapHours", Double(due.gapSeconds) / 3600)
    return object.result
  }
}
