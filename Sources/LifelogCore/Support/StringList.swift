extension Array where Element == String {
  /// The strings with `separator` between them, as `joined(separator:)` gives.
  ///
  /// For the paths every `add` and `list` runs: the standard library's `joined(separator:)` is
  /// generic, and its first use on each collection type made the Swift runtime look up that
  /// type's conformances by scanning every conformance record in the binary (about 130,000
  /// instructions each, a twentieth of a whole `add`). This one is concrete, so nothing is
  /// looked up at run time.
  public func joinedText(separator: String) -> String {
    var result = ""
    for index in 0..<count {
      if index > 0 { result += separator }
      result += self[index]
    }
    return result
  }
}
