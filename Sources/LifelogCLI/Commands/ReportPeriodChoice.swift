import LifelogCore

/// `--by`: the period activity totals are counted per. The accepted words are the periods' raw
/// values (`day`, `week`, `month`) and their ``byAliases``; help, completion and the error for an
/// unknown word are derived from them.
extension Target.Period {
  /// The period when `--by` is not given.
  static let byDefault = Target.Period.week

  /// Other words `--by` takes for this period: `daily` and `d` for `day`.
  var byAliases: [String] {
    switch self {
    case .day: ["daily", "d"]
    case .week: ["weekly", "w"]
    case .month: ["monthly", "m"]
    }
  }

  /// The `--by` option, listing the periods in order.
  static var byOption: OptionSpec {
    let names = allCases.map(\.rawValue)
    return OptionSpec(
      ["--by"], value: "period", help: "Activity totals per \(OptionSpec.spokenList(names)).",
      default: byDefault.rawValue, completes: .choices(names))
  }

  /// The period `text` names, in any case.
  ///
  /// - Throws: ``UsageError`` naming the periods when none has that name.
  init(parsingBy text: String) throws(UsageError) {
    let word = text.lowercased()
    guard
      let period = Self.allCases.first(where: { $0.rawValue == word || $0.byAliases.contains(word) }
      )
    else {
      let names = Self.allCases.map(\.rawValue)
      throw UsageError("Unknown period '\(word)' for --by; use \(OptionSpec.spokenList(names))")
    }
    self = period
  }
}
