import LifelogCore

/// `--format text`: for a terminal, coloured there; the whole report, since the diary's columns
/// line up over all days.
struct TextReportFormat: ReportRenderer {
  let name = "text"
  let aliases = ["txt"]

  /// Notes only where meals are listed one by one (the compact and activity reports show none).
  func fields(for kind: ReportKind) -> ReportLog.Fields { kind == .meals ? .notes : [] }

  func write(_ job: ReportJob) throws {
    try job.writeWhole { content, style, write in
      Self.render(content, style: style, write)
    }
  }

  /// Writes the report of `content`'s kind: the meal diary, the activity report, or both compact.
  static func render(_ content: ReportContent, style: ReportStyle, _ write: (String) -> Void) {
    switch content.kind {
    case .meals: content.meals.map { MealReportText(report: $0, style: style).full(write) }
    case .activity:
      content.activity.map { ActivityReportText(report: $0, style: style).full(write) }
    case .both:
      let name = content.settings.name.isEmpty ? "" : ", " + content.settings.name
      var text =
        style.bold(
          Translation.current.format("Report, {range}", ["range": ReportText.range(content.range)]))
        + name + "\n\n"
      if let meals = content.meals {
        // A row per day of the range: written in pieces, never held whole.
        write(text)
        MealReportText(report: meals, style: style).compact(write)
        text = "\n"
      }
      if let activity = content.activity {
        text += ActivityReportText(report: activity, style: style).compact()
      }
      if let offsets = ReportText.offsets(content.offsets) {
        text += "\n" + Translation.current("Offsets") + ": \(offsets)\n"
      }
      write(text)
    }
  }
}
