import LifelogCore

/// The `--timeout SECONDS` of `sync` and `check`: how long a remote may take before exit 69.
///
/// Bounded above as well as below: the deadline is computed in milliseconds, so a value near
/// `Int.max` would overflow (a trap) rather than wait forever.
/// A day is far beyond any sync a person waits for, and still fits every computation.
enum TimeoutOption {
  static let maximumSeconds = 86_400

  /// The seconds in `text`: the option's value, or the default its `OptionSpec` shows.
  ///
  /// - Throws: ``InputError`` (exit 65) for anything but a whole number from 1 to a day.
  static func seconds(_ text: String?) throws(InputError) -> Int {
    let text = text ?? ""
    guard text.utf8.count <= 6, let seconds = Int(text), (1...maximumSeconds).contains(seconds)
    else {
      throw InputError(
        "--timeout must be a whole number of seconds from 1 to \(maximumSeconds) (a day), not '\(text)'"
      )
    }
    return seconds
  }
}
