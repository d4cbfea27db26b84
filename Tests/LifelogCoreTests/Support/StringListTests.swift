import LifelogCore
import Testing

/// ``Swift/Array/joinedText(separator:)`` gives what the standard library's `joined(separator:)`
/// gives.
@Suite struct StringListTests {
  @Test(arguments: [[], [""], ["a"], ["a", "b"], ["", ""], ["x y", "", "ż", "end"]])
  func joinedTextIsJoined(_ parts: [String]) {
    for separator in ["", " ", ", ", " AND "] {
      #expect(parts.joinedText(separator: separator) == parts.joined(separator: separator))
    }
  }
}
