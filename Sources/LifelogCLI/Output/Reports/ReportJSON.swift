import LifelogCore

/// Reports as JSON, with the fields docs/reports.md lists, in a fixed order: one object per day
/// (or activity) per line, so the output diffs well.
struct ReportJSON {
  let content: ReportContent

  func render() -> String {
    switch content.kind {
    case .meals: return (content.meals.map(meals) ?? "{}") + "\n"
    case .activity: return (content.activity.map(activity) ?? "{}") + "\n"
    case .both:
      var object = JSONObjectWriter()
      object.add("from", content.range.from.description)
      object.add("to", content.range.to.description)
      if let report = content.meals { object.addRaw("meals", "\n" + meals(report)) }
      if let report = content.activity { object.addRaw("activity", "\n" + activity(report)) }
      return object.result + "\n"
    }
  }

  // MARK: - Meals

  func meals(_ report: MealReport) -> String {
    var object = header(report.range, report.settings)
    object.add("mealGapHours", report.settings.mealGapHours)
    object.addRaw("offsets", offsets(report.offsets))
    object.addRaw("days", list(report.days.map { day(report, $0) }))
    object.addRaw("summary", summary(report))
    return object.result
  }

  private func header(_ range: ReportRange, _ settings: ReportSettings) -> JSONObjectWriter {
    var object = JSONObjectWriter()
    object.add("from", range.from.description)
    object.add("to", range.to.description)
    object.add("name", settings.name.isEmpty ? nil : settings.name)
    object.add("dayStartsAt", ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes))
    return object
  }

  private func day(_ report: MealReport, _ day: MealDay) -> String {
    var object = JSONObjectWriter()
    object.add("date", day.date.description)
    object.add("mealCount", day.meals.count)
    object.add("firstMeal", day.firstMeal.map { ReportText.clock($0.time) })
    object.add("lastMeal", day.lastMeal.map { ReportText.clock($0.time) })
    object.add("overnightGapMinutes", day.overnightGapMinutes)
    object.add("longestGapMinutes", day.longestGapMinutes)
    object.addRaw(
      "flaggedGaps",
      "["
        + day.flaggedGaps.map { gap in
          var object = JSONObjectWriter()
          object.add("minutes", gap.minutes)
          object.add("from", gap.from.iso8601)
          object.add("to", gap.to.iso8601)
          return object.result
        }.joined(separator: ",") + "]")
    object.add("onRhythm", day.isOnRhythm)
    object.addRaw(
      "meals", "[" + day.meals.map { meal($0, report.entry(of: $0)) }.joined(separator: ",") + "]")
    return object.result
  }

  private func meal(_ meal: Meal, _ entry: Entry) -> String {
    var object = JSONObjectWriter()
    object.add("id", entry.id)
    object.add("at", meal.time.iso8601)
    object.add("time", ReportText.clock(meal.time))
    object.add("activity", entry.activityName)
    object.add("note", entry.note)
    object.add("gapMinutes", meal.gapMinutes)
    object.add("flagged", meal.isFlagged)
    object.add("away", meal.isAway)
    return object.result
  }

  private func summary(_ report: MealReport) -> String {
    let summary = report.summary
    let settings = report.settings
    var object = JSONObjectWriter()
    object.add("days", summary.days)
    object.add("daysWithMeals", summary.daysWithMeals)
    object.add("daysWithoutMeals", summary.daysWithoutMeals)
    object.add("meals", summary.meals)
    object.addRaw("mealsPerDay", ReportText.jsonNumber(summary.mealsPerDay, decimals: 2))
    object.add("gaps", summary.gapCount)
    object.add("medianGapMinutes", summary.medianGapMinutes)
    object.add("averageGapMinutes", summary.averageGapMinutes)
    object.add("longestGapMinutes", summary.longestGapMinutes)
    object.add("longestGapDate", summary.longestGapDate?.description)
    object.add("flaggedGaps", summary.flaggedGaps)
    object.add(
      "typicalFirstMeal",
      summary.typicalFirstMealMinute.map { ReportText.clock(minuteOfDay: $0, settings) })
    object.add(
      "typicalLastMeal",
      summary.typicalLastMealMinute.map { ReportText.clock(minuteOfDay: $0, settings) })
    object.add("daysOnRhythm", summary.daysOnRhythm)
    return object.result
  }

  // MARK: - Activity

  func activity(_ report: ActivityReport) -> String {
    var object = header(report.range, report.settings)
    object.add("by", report.grouping.rawValue)
    object.add("weekStartsOn", ReportText.weekdayNames[report.settings.weekStartsOn].lowercased())
    object.addRaw("offsets", offsets(report.offsets))
    object.addRaw(
      "periods",
      "["
        + report.periods.map { period in
          var object = JSONObjectWriter()
          object.add("start", period.start.description)
          object.add("end", period.end.description)
          object.add("firstDay", period.firstDay.description)
          object.add("lastDay", period.lastDay.description)
          object.add("days", period.dayCount)
          object.add("partial", period.isPartial)
          return object.result
        }.joined(separator: ",") + "]")
    object.addRaw("activities", list(report.activities.map(totals)))
    object.addRaw("sleep", sleep(report))
    return object.result
  }

  private func totals(_ totals: ActivityTotals) -> String {
    let activity = totals.activity
    var object = JSONObjectWriter()
    object.addActivity(activity)
    object.addRaw("total", amount(totals.total))
    object.addRaw("periods", "[" + totals.periods.map(amount).joined(separator: ",") + "]")
    return object.result
  }

  private func amount(_ amount: ActivityAmount) -> String {
    var object = JSONObjectWriter()
    object.add("count", amount.count)
    object.add("durationSeconds", amount.durationSeconds)
    object.addRaw(
      "quantity",
      amount.quantityCount > 0 ? ReportText.jsonNumber(amount.quantity, decimals: 3) : "null")
    object.addRaw(
      "targetAmount", amount.targetAmount.map { ReportText.jsonNumber($0, decimals: 2) } ?? "null")
    object.addRaw(
      "achieved", amount.achieved.map { ReportText.jsonNumber($0, decimals: 2) } ?? "null")
    object.addRaw(
      "percentReached",
      amount.percentReached.map { ReportText.jsonNumber($0, decimals: 1) } ?? "null")
    return object.result
  }

  private func sleep(_ report: ActivityReport) -> String {
    let summary = report.sleep
    var object = JSONObjectWriter()
    object.add("nightsLogged", summary.nightsLogged)
    object.add("averageSeconds", summary.averageSeconds)
    object.add("shortestSeconds", summary.shortestSeconds)
    object.add("longestSeconds", summary.longestSeconds)
    object.addRaw(
      "nights",
      list(
        report.nights.map { night in
          var object = JSONObjectWriter()
          object.add("date", night.date.description)
          object.add("entries", night.entries)
          object.add("sleptSeconds", night.sleptSeconds)
          object.add("untimedEntries", night.untimedEntries)
          object.add("bedtime", night.bedtime?.iso8601)
          object.add("wakeTime", night.wakeTime?.iso8601)
          return object.result
        }))
    return object.result
  }

  // MARK: - Shared

  private func offsets(_ offsets: [LoggedOffset]) -> String {
    "["
      + offsets.map { offset in
        var object = JSONObjectWriter()
        object.add("offset", LoggedTime.offsetDescription(minutes: offset.offsetMinutes))
        object.add("entries", offset.entries)
        object.add("awayEntries", offset.awayEntries)
        object.add("firstDay", offset.firstDay.description)
        object.add("lastDay", offset.lastDay.description)
        return object.result
      }.joined(separator: ",") + "]"
  }

  /// An array with one element per line.
  private func list(_ items: [String]) -> String {
    items.isEmpty ? "[]" : "[\n" + items.joined(separator: ",\n") + "\n]"
  }
}
