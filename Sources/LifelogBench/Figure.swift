import LifelogCore

/// One benchmark result and the target it is held to.
struct Figure {
  /// Which way a figure has to go.
  enum Goal {
    /// Smaller is better: met when the value is at most this.
    case atMost(Double)
    /// Larger is better: met when the value is at least this.
    case atLeast(Double)
  }

  let name: String
  let value: Double
  let unit: String
  let goal: Goal
  /// Digits after the decimal point in the printed value.
  let decimals: Int

  var met: Bool {
    switch goal {
    case .atMost(let limit): return value <= limit
    case .atLeast(let limit): return value >= limit
    }
  }

  /// `<= 5 ms`, `>= 500000 rows/s`.
  var target: String {
    switch goal {
    case .atMost(let limit): return "<= \(Figure.plain(limit)) \(unit)"
    case .atLeast(let limit): return ">= \(Figure.plain(limit)) \(unit)"
    }
  }

  /// `{"name":"add_empty_ms","value":2.41,"unit":"ms","target":"<= 5 ms","met":true}`.
  var jsonLine: String {
    "{\"name\":\"\(name)\",\"value\":\(Figure.fixed(value, decimals)),\"unit\":\"\(unit)\","
      + "\"target\":\"\(target)\",\"met\":\(met)}"
  }

  /// A number without a fraction when it is whole (`5`, `0.5`).
  static func plain(_ value: Double) -> String {
    value.rounded() == value ? String(Int64(value)) : String(value)
  }

  /// A number with exactly `decimals` digits after the point (no Foundation).
  ///
  /// An overhead measured on a busy machine can come out below zero: it keeps its sign.
  static func fixed(_ value: Double, _ decimals: Int) -> String {
    TextBytes.string { $0.fixed(value, decimals: decimals) }
  }
}
