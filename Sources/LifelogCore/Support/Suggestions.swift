/// "Did you mean …?": the known names closest to a mistyped one.
public enum Suggestions {
  /// Up to `limit` candidates within a small edit distance of `text`, nearest first; names that
  /// start with what was typed count as near.
  public static func nearest(to text: String, in candidates: [String], limit: Int = 3) -> [String] {
    let typed = Array(text.lowercased())
    let threshold = max(2, typed.count / 3)
    var scored: [(name: String, distance: Int)] = []
    for candidate in candidates {
      let lowered = candidate.lowercased()
      let distance =
        lowered.hasPrefix(String(typed)) && typed.count >= 2
        ? 1 : editDistance(typed, Array(lowered))
      if distance <= threshold { scored.append((candidate, distance)) }
    }
    scored.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
    return scored.prefix(limit).map(\.name)
  }

  /// Levenshtein distance, counting a swap of two neighbours as one edit.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count]
  }
}
