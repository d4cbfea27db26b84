import Synchronization

/// A command reading an argument or option it does not declare is a programmer error: a
/// misspelt key would silently read as absent (`positionals["nmae"]?.first ?? ""` is "").
///
/// ``ParsedArguments`` checks every lookup against the command's ``CommandConfiguration``. In a
/// debug build an undeclared name traps at once; while a test collects them in ``current``, it is
/// recorded instead, so one test can parse every command's examples and list each misspelling.
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

/// The positional arguments of a command line by name (``ParsedArguments/checkedPositionals(for:)``).
struct Positionals: Equatable {
  private let values: [String: [String]]
  private let declared: Set<String>

  init(_ values: [String: [String]], declared: Set<String>) {
    self.values = values
    self.declared = declared
  }

  /// The values given for the argument `name`; nil when none was given.
  ///
  /// `name` must be one the command declares (an ``ArgumentSpec``): anything else is reported
  /// as a programmer error (``UndeclaredNames``).
  subscript(name: String) -> [String]? {
    if !declared.contains(name) { UndeclaredNames.report(name) }
    return values[name]
  }

  static func == (lhs: Positionals, rhs: [String: [String]]) -> Bool { lhs.values == rhs }
}
