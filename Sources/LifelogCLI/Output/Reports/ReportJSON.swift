import LifelogCore

/// Reports as JSON, with the fields docs/reports.md lists, in a fixed order: one object per day
/// (or activity) per line, so the output diffs well.
///
/// The activity report's totals are held (a few numbers per activity and period with entries)
/// and its periods and nights written a piece at a time (``activity(_:write:)``): over the whole
/// calendar they are millions of lines, made as they are written. The meal report's days are written a day at a time as they close (``MealDayStream``),
/// between an opening (``mealsOpening(range:settings:offsets:)``, with the offsets read in a pass
/// of their own) and a closing (``mealsClosing(_:settings:)``, with the summary).
struct ReportJSON {
  /// `report activity --format json`.
  static func activityReport(_ report: ActivityReport?, write: (String) -> Void) {
    guard let report else { return write("{}\n") }
    ReportJSON().activity(report, write: write)
    write("\n")
  }

  // MARK: - Meals

  /// The meal report's object up to its days' list: `{"from":…,"offsets":[…],"days":`.
  func mealsOpening(
    range: ReportRange, settings: ReportSettings, offsets: [LoggedOffset]
  )
    -> String
  {
    var object = header(range, settings)
    object.add("mealGapHours", settings.mealGapHours)
    object.add("mealGapMinHours", settings.mealGapMinMinutes / 60)
    object.addRaw("offsets", self.offsets(offsets))
    return String(object.result.dropLast()) + ",\"days\":"
  }

  /// The meal report's object after its days' list: `,"summary":{…}}`.
  func mealsClosing(_ summary: MealSummary, settings: ReportSettings) -> String {
    ",\"summary\":" + self.summary(summary, settings) + "}"
  }

  /// What goes before the day at `index` in the days' list (one day a line), and after the last
  /// of `count` days.
  static func dayListSeparator(before index: Int) -> String { index == 0 ? "[\n" : ",\n" }
  static func dayListEnd(count: Int) -> String { count == 0 ? "[]" : "\n]" }

  private func header(_ range: ReportRange, _ settings: ReportSettings) -> JSONObjectWriter {
    var object = JSONObjectWriter()
    object.add("from", range.from.description)
    object.add("to", range.to.description)
    object.add("name", settings.name.isEmpty ? nil : settings.name)
    object.add("dayStartsAt", ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes))
    return object
  }

  /// One day of the diary, on one line, written as bytes: the fields and escapes of
  /// ``JSONObjectWriter`` (the other objects), a fraction of its cost over 100,000 meals.
  func day(_ closed: ClosedMealDay, into text: inout TextBytes) {
    let day = closed.day
    text.append("{\"date\":\"")
    text.date(day.date)
    text.append("\",\"mealCount\":")
    text.number(day.meals.count)
    text.append(",\"firstMeal\":")
    Self.clock(day.firstMeal?.time, &text)
    text.append(",\"lastMeal\":")
    Self.clock(day.lastMeal?.time, &text)
    text.append(",\"overnightGapMinutes\":")
    Self.number(day.overnightGapMinutes, &text)
    text.append(",\"longestGapMinutes\":")
    Self.number(day.longestGapMinutes, &text)
    text.append(",\"flaggedGaps\":[")
    for (index, gap) in day.flaggedGaps.enumerated() {
      text.append(index == 0 ? "{\"minutes\":" : ",{\"minutes\":")
      text.number(gap.minutes)
      text.append(",\"from\":\"")
      text.iso8601(gap.from)
      text.append("\",\"to\":\"")
      text.iso8601(gap.to)
      text.append("\",\"flag\":\"")
      text.append(gap.flag.code)
      text.append("\"}")
    }
    text.append(
      day.isOnRhythm ? "],\"onRhythm\":true,\"meals\":[" : "],\"onRhythm\":false,\"meals\":[")
    for (index, meal) in day.meals.enumerated() {
      let entry = closed.entry(of: meal)
      text.append(index == 0 ? "{\"id\":" : ",{\"id\":")
      text.jsonString(entry.id)
      text.append(",\"at\":\"")
      text.iso8601(meal.time)
      text.append("\",\"time\":")
      Self.clock(meal.time, &text)
      text.append(",\"activity\":")
      text.jsonString(entry.activityName)
      text.append(",\"note\":")
      if let note = entry.note { text.jsonString(note) } else { text.append("null") }
      text.append(",\"gapMinutes\":")
      Self.number(meal.gapMinutes, &text)
      text.append(meal.isFlagged ? ",\"flagged\":true" : ",\"flagged\":false")
      if let flag = meal.gapFlag {
        text.append(",\"gapFlag\":\"")
        text.append(flag.code)
        text.append("\"")
      } else {
        text.append(",\"gapFlag\":null")
      }
      text.append(meal.isAway ? ",\"away\":true}" : ",\"away\":false}")
    }
    text.append("]}")
  }

  /// `"07:30"` (``ReportText/clock(_:marked:)``), or `null`.
  private static func clock(_ time: LoggedTime?, _ text: inout TextBytes) {
    guard let local = time?.local else { return text.append("null") }
    text.append(byte: UInt8(ascii: "\""))
    text.clock(hour: local.hour, minute: local.minute, second: local.second)
    text.append(byte: UInt8(ascii: "\""))
  }

  private static func number(_ value: Int?, _ text: inout TextBytes) {
    guard let value else { return text.append("null") }
    text.number(value)
  }

  private func summary(_ summary: MealSummary, _ settings: ReportSettings) -> String {
    var object = JSONObjectWriter()
    object.add("days", summary.days)
    // Only when there are any, so a report of past days reads as it always has.
    if summary.unfinishedDays > 0 { object.add("unfinishedDays", summary.unfinishedDays) }
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
    object.add("shortGaps", summary.shortGaps)
    object.add("longGaps", summary.longGaps)
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

  /// Writes the activity report's object to `write` in pieces of about 64 KiB.
  func activity(_ report: ActivityReport, write: (String) -> Void) {
    // The pieces live only inside this call.
    withoutActuallyEscaping(write) { write in
      var pieces = JSONPieces(write: write)
      var object = header(report.range, report.settings)
      object.add("by", report.grouping.rawValue)
      object.add("weekStartsOn", ReportText.weekdayNames[report.settings.weekStartsOn].lowercased())
      object.addRaw("offsets", offsets(report.offsets))
      object.addRaw("periods", "")
      pieces.append(String(object.result.dropLast()) + "[")
      for (index, period) in report.periods.enumerated() {
        var object = JSONObjectWriter()
        object.add("start", period.start.description)
        object.add("end", period.end.description)
        object.add("firstDay", period.firstDay.description)
        object.add("lastDay", period.lastDay.description)
        object.add("days", period.dayCount)
        object.add("partial", period.isPartial)
        pieces.append(index == 0 ? object.result : "," + object.result)
      }
      pieces.append("],\"activities\":")
      list(report.activities, into: &pieces) { totals, pieces in self.totals(totals, into: &pieces)
      }
      pieces.append(",\"sleep\":")
      sleep(report, into: &pieces)
      pieces.append("}")
      pieces.flush()
    }
  }

  private func totals(_ totals: ActivityTotals, into pieces: inout JSONPieces) {
    var object = JSONObjectWriter()
    object.addActivity(totals.activity)
    object.addRaw("total", amount(totals.total))
    object.addRaw("periods", "")
    pieces.append(String(object.result.dropLast()) + "[")
    for (index, amount) in totals.periods.enumerated() {
      pieces.append(index == 0 ? self.amount(amount) : "," + self.amount(amount))
    }
    pieces.append("]}")
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

  private func sleep(_ report: ActivityReport, into pieces: inout JSONPieces) {
    let summary = report.sleep
    var object = JSONObjectWriter()
    object.add("nightsLogged", summary.nightsLogged)
    object.add("averageSeconds", summary.averageSeconds)
    object.add("shortestSeconds", summary.shortestSeconds)
    object.add("longestSeconds", summary.longestSeconds)
    object.addRaw("nights", "")
    pieces.append(String(object.result.dropLast()))
    list(report.nights, into: &pieces) { night, pieces in
      var object = JSONObjectWriter()
      object.add("date", night.date.description)
      object.add("entries", night.entries)
      object.add("sleptSeconds", night.sleptSeconds)
      object.add("untimedEntries", night.untimedEntries)
      object.add("bedtime", night.bedtime?.iso8601)
      object.add("wakeTime", night.wakeTime?.iso8601)
      pieces.append(object.result)
    }
    pieces.append("}")
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

  /// An array with one element per line, each written by `element`.
  private func list<Items: Collection>(
    _ items: Items, into pieces: inout JSONPieces,
    _ element: (Items.Element, inout JSONPieces) -> Void
  ) {
    guard !items.isEmpty else { return pieces.append("[]") }
    for (index, item) in items.enumerated() {
      pieces.append(index == 0 ? "[\n" : ",\n")
      element(item, &pieces)
    }
    pieces.append("\n]")
  }
}

/// Gathers small pieces of JSON and hands them on about 64 KiB at a time, so a report of
/// millions of lines is neither held whole nor written a line per write.
struct JSONPieces {
  let write: (String) -> Void
  private var gathered = ""

  init(write: @escaping (String) -> Void) { self.write = write }

  mutating func append(_ piece: String) {
    gathered += piece
    if gathered.utf8.count >= 1 << 16 { flush() }
  }

  /// Hands on what is gathered.
  mutating func flush() {
    guard !gathered.isEmpty else { return }
    write(gathered)
    gathered = ""
  }
}
