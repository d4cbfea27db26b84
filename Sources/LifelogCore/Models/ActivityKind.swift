/// What sort of thing an activity is; reports treat each kind differently (meals get gaps,
/// sleep gets nights, exercise gets totals against a target).
public enum ActivityKind: String, CaseIterable, Sendable {
  case meal, exercise, sleep, medication, other

  /// Parses a kind name, case-insensitively.
  public init(parsing text: String) throws(InputError) {
    guard let kind = ActivityKind(rawValue: text.lowercased().trimmingSpaces()) else {
      let names = ActivityKind.allCases.map(\.rawValue).joined(separator: ", ")
      throw InputError("Unknown kind '\(text)'; use one of: \(names)")
    }
    self = kind
  }
}
