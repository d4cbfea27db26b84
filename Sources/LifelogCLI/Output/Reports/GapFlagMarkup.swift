import LifelogCore

/// The HTML of each gap flag's marks, translated and put together once per report.
///
/// A diary of snacks can flag nearly every one of 100,000 gaps: translating and joining the same
/// four phrases for each cost more than writing the rest of the page.
struct GapFlagMarkup {
  /// Per flag, in ``MealGapFlag/allCases`` order (see ``index(of:)``).
  private let rowOpenings: [String]
  private let cellMarks: [String]
  private let bandTitles: [(before: String, after: String)]

  init() {
    let tr = Translation.current
    let flags = MealGapFlag.allCases
    rowOpenings = flags.map { "<tr class=\"flagged \($0.htmlClass)\"><td class=\"t\">" }
    cellMarks = flags.map { " <span class=\"flag \($0.htmlClass)\">\($0.shape) \($0.words)</span>" }
    bandTitles = flags.map { tr.split("gap {gap}, {flag}", at: "gap", ["flag": $0.words]) }
  }

  /// The opening of the table row of a meal whose gap has `flag`, up to its time cell.
  func rowOpening(_ flag: MealGapFlag) -> String { rowOpenings[Self.index(of: flag)] }

  /// The mark after the minutes in the gap cell: ` <span class="flag short">▼ a bit short</span>`.
  func cellMark(_ flag: MealGapFlag) -> String { cellMarks[Self.index(of: flag)] }

  /// A timeline band's title around its minutes: `gap `, `, a bit short`.
  func bandTitle(_ flag: MealGapFlag) -> (before: String, after: String) {
    bandTitles[Self.index(of: flag)]
  }

  /// The flags' raw values run 1, 2, 3, 4 in ``MealGapFlag/allCases`` order.
  private static func index(of flag: MealGapFlag) -> Int { Int(flag.rawValue) - 1 }
}
