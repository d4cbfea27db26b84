/// The names of a sheet's columns (or a workbook's sheets) as an error message lists them: the
/// first 20, then `… and N more`, each name cut to 60 characters, so a sheet with thousands of
/// columns, or a header cell holding a page of text, still makes a message a person can read.
enum SheetNameList {
  /// How many names a message shows.
  static let shownCount = 20
  /// How many characters of one name a message shows, counted as Unicode scalars: one
  /// `Character` can hold any number of combining marks, so counting those would not bound it.
  static let shownCharacters = 60

  /// `items` written by `show` and joined with commas; past ``shownCount``, `… and N more`.
  static func joined<Items: Collection>(
    _ items: Items, _ show: (Items.Element) -> String
  ) -> String {
    var text = items.prefix(shownCount).map(show).joined(separator: ", ")
    let more = items.count - shownCount
    if more > 0 { text += ", … and \(more) more" }
    return text
  }

  /// `name` quoted, cut to ``shownCharacters`` with `…` when longer.
  static func quoted(_ name: String) -> String {
    guard isLong(name) else { return "'\(name)'" }
    let shown = String(String.UnicodeScalarView(name.unicodeScalars.prefix(shownCharacters)))
    return "'\(shown)…'"
  }

  /// Whether `name` has more than ``shownCharacters`` scalars (without counting all of them).
  static func isLong(_ name: String) -> Bool {
    name.unicodeScalars.dropFirst(shownCharacters).first != nil
  }
}
