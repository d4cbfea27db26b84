import LifelogCore

/// Which number of a date written `a/b/yyyy` is the day: `6/12/2026` is the 6th of December
/// in Poland and June 12th in the USA.
public enum SheetDateOrder: String, Sendable {
  case dayFirst = "d/m/yyyy"
  case monthFirst = "m/d/yyyy"
  case yearFirst = "yyyy-m-d"

  /// Reads `--date-format`: the order of its `d`, `m` and `y` (`dd.mm.yyyy`, `m/d/yyyy`, `ymd`).
  public static func parse(_ text: String) throws(InputError) -> SheetDateOrder {
    let letters = text.lowercased().filter { "dmy".contains($0) }
    var order: [Character] = []
    for letter in letters where !order.contains(letter) { order.append(letter) }
    switch String(order) {
    case "dmy": return .dayFirst
    case "mdy": return .monthFirst
    case "ymd": return .yearFirst
    default:
      throw InputError(
        "Cannot read date format '\(text)'; write it as 'd.m.yyyy', 'm/d/yyyy' or 'yyyy-mm-dd'")
    }
  }

  /// The order the numeric dates of a column show.
  ///
  /// A first number above 12 is a day, a second above 12 makes the first the month. Dates that show both are refused with their rows; dates
  /// that show neither are refused with a request for `--date-format`.
  ///
  /// - Parameter dates: the `a/b/yyyy` dates of the column: the row, the text and its `a` and `b`.
  static func decide(
    _ dates: [(row: Int, text: String, first: Int, second: Int)]
  ) throws(InputError) -> SheetDateOrder? {
    guard !dates.isEmpty else { return nil }
    let dayFirst = dates.first { $0.first > 12 }
    let monthFirst = dates.first { $0.second > 12 }
    switch (dayFirst, monthFirst) {
    case (let day?, let month?):
      throw InputError(
        "The dates disagree on their order: row \(day.row) '\(day.text)' has the day first, "
          + "row \(month.row) '\(month.text)' has the month first; correct one of them, or "
          + "pass --date-format d/m/yyyy or m/d/yyyy and list the rows that do not fit it")
    case (.some, nil): return .dayFirst
    case (nil, .some): return .monthFirst
    case (nil, nil):
      let shown = dates.prefix(3).map { "row \($0.row) '\($0.text)'" }.joined(separator: ", ")
      throw InputError(
        "The dates read either way (\(shown): day or month first?); say which with "
          + "--date-format d/m/yyyy or --date-format m/d/yyyy")
    }
  }
}
