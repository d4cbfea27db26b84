import LifelogCore

/// A fixed log for the Polish and PDF report tests: two weeks of meals in Warsaw, Monday
/// 2026-11-23 to Sunday 2026-12-06, with notes in Polish (every Polish letter appears: ą ć ę ł
/// ń ó ś ź ż), a long gap most days and a day without meals.
public enum PolishSampleLog {
  /// "Now": Sunday 2026-12-06, 21:00 in Warsaw.
  public static let now = "2026-12-06T21:00:00+01:00"
  public static let zone = "Europe/Warsaw"
  public static let from = "2026-11-23"
  public static let to = "2026-12-06"

  /// The notes, one per meal of a day, in turn.
  public static let notes = [
    "owsianka z jabłkiem", "żurek na zakwasie", "gołąbki, ziemniaki", "jogurt źródlany",
    "pierogi ruskie", "śledź w śmietanie", "chleb z masłem", "kanapka z łososiem",
  ]

  /// A note's day and time; each day but 2026-11-29 has three to four meals.
  public static var rows: [ReportSampleLog.Row] {
    var rows: [ReportSampleLog.Row] = []
    var note = 0
    for offset in 0..<14 where offset != 6 {
      let day = 23 + offset
      let date = day <= 30 ? "2026-11-\(day)" : "2026-12-0\(day - 30)"
      let times =
        offset % 3 == 0 ? ["07:30", "12:45", "19:15"] : ["08:00", "11:30", "16:50", "20:10"]
      for (index, time) in times.enumerated() {
        let activity = ["breakfast", "lunch", "snack", "dinner"][
          index == times.count - 1 ? 3 : index]
        rows.append((activity, "\(date)T\(time):00+01:00", notes[note % notes.count], nil, nil))
        note += 1
      }
    }
    return rows
  }

  /// Builds the log at `path`, with the name `Anna Żółkiewska` for report titles.
  @discardableResult
  public static func build(at path: String) throws -> LogStore {
    let store = try ReportSampleLog.build(at: path, rows: rows)
    _ = try store.set(.name, to: "Anna Żółkiewska")
    return store
  }
}
