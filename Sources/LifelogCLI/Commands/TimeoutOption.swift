import LifelogCore

/// The `--timeout SECONDS` of the commands that wait on a remote or a server: how long it may
/// take before exit 69.
///
/// Bounded above as well as below: the deadline is computed in milliseconds, so a value near
/// `Int.max` would overflow (a trap) rather than wait forever.
/// A day is far beyond any sync a person waits for, and still fits every computation.
struct TimeoutOption: Sendable {
  static let maximumSeconds = 86_400

  /// `check` and `recover`: the remote they read besides the log.
  static let remote = TimeoutOption(
    help: "Give up on the remote after this long (exit 69).", defaultSeconds: 60)
  /// `sync`: every remote it syncs with.
  static let sync = TimeoutOption(help: "Give up after this long (exit 69).", defaultSeconds: 60)
  /// `pair` and `share`: one exchange with the server.
  static let server = TimeoutOption(help: "Give up after this long (exit 69).", defaultSeconds: 30)

  /// The option as the configuration lists it.
  let spec: OptionSpec

  init(help: String, defaultSeconds: Int) {
    spec = OptionSpec(["--timeout"], value: "seconds", help: help, default: String(defaultSeconds))
  }

  /// The seconds given, or the default help shows.
  ///
  /// - Throws: ``InputError`` (exit 65) for anything but a whole number from 1 to a day.
  func seconds(in arguments: ParsedArguments) throws(InputError) -> Int {
    try Self.seconds(arguments.valueOrDefault(spec))
  }

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
