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
    let tr = Translation.current
    guard let lastMeal, let dueAt = due.dueAt else {
      return tr("No meals logged yet; log one with 'lifelog add breakfast'") + "\n"
    }
    var text = tr.format(
      "Last meal: {activity} {when}",
      ["activity": lastMeal.activityName, "when": presenter.when(lastMeal.time)])
    if let note = lastMeal.note { text += " \"\(note.count > 60 ? note.prefix(59) + "…" : note)\"" }
    text += " (\(ago(due.sinceMinutes ?? 0)))\n"
    let dueTime = presenter.when(due.now.instant == dueAt ? due.now : zoneTime(dueAt))
    let when = relative
    if due.isFirstOfDay {
      text += tr.format(
        "No meal yet today (days start at {time}); the first is due by {due} ({when})",
        ["time": dayStartsAt, "due": dueTime, "when": when])
    } else {
      text += tr.format("Next meal due: {due} ({when})", ["due": dueTime, "when": when])
    }
    return text + "\n"
  }

  /// The message `lifelog remind` sends: one line.
  var message: String {
    guard let lastMeal, let dueAt = due.dueAt else { return "" }
    let tr = Translation.current
    let time = presenter.when(zoneTime(dueAt))
    let last = tr.format(
      "the last was {activity} {ago}",
      ["activity": lastMeal.activityName, "ago": ago(due.sinceMinutes ?? 0)])
    if due.overdueMinutes > 0 {
      return tr.format(
        "A meal was due at {time}, {overdue} ago: {last}",
        ["time": time, "overdue": DurationText.format(due.overdueMinutes * 60), "last": last])
    }
    guard let seconds = due.secondsUntilDue, seconds >= 60 else {
      return tr.format("A meal is due now: {last}", ["last": last])
    }
    return tr.format(
      "A meal is due at {time}, in {duration}: {last}",
      ["time": time, "duration": short, "last": last])
  }

  /// `in 55m`, `due now`, `overdue by 25m`.
  private var relative: String {
    let tr = Translation.current
    if due.overdueMinutes > 0 {
      return tr.format(
        "overdue by {duration}", ["duration": DurationText.format(due.overdueMinutes * 60)])
    }
    let token = short
    return token == "due" ? tr("due now") : tr.format("in {duration}", ["duration": token])
  }

  private func ago(_ minutes: Int) -> String {
    minutes < 1
      ? Translation.current("just now")
      : Translation.current.format(
        "{duration} ago", ["duration": DurationText.format(minutes * 60)])
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
