import Synchronization

/// A command reading an argument or option its configuration does not list is a programmer error.
///
/// Lookups take the command's own ``ArgumentSpec`` and ``OptionSpec`` values, so a misspelt name
/// does not compile; what the compiler cannot see is a spec declared but left out of the
/// ``CommandConfiguration`` (or one borrowed from another command), which would read as absent.
/// ``ParsedArguments`` and ``Positionals`` check each lookup against the configuration: in a debug
/// build such a name traps at once; while a test collects them in ``current``, it is recorded
/// instead, so one test can parse every command's examples and list each one.
final class UndeclaredNames: Sendable {
  @TaskLocal static var current: UndeclaredNames?

  private let names = Mutex<[String]>([])

  init() {}

  /// The undeclared names looked up, in order.
  var all: [String] { names.withLock { $0 } }

  /// Reports that `name` was looked up though the command does not declare it.
  static func report(_ name: String) {
    if let current {
      current.names.withLock { $0.append(name) }
    } else {
      assertionFailure("'\(name)' is not an argument or option this command declares")
    }
  }
}
