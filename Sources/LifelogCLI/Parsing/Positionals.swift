/// The positional arguments of a command line, read by the command's own ``ArgumentSpec``s
/// (``ParsedArguments/checkedPositionals(for:)``).
struct Positionals {
  private let values: [String: [String]]
  private let declared: [ArgumentSpec]

  init(_ values: [String: [String]], declared: [ArgumentSpec]) {
    self.values = values
    self.declared = declared
  }

  /// The values given for `argument`, in order; empty when none was given.
  ///
  /// `argument` must be one the configuration lists: anything else is reported as a programmer
  /// error (``UndeclaredNames``).
  subscript(_ argument: ArgumentSpec) -> [String] {
    if !declared.contains(where: { $0.name == argument.name }) {
      UndeclaredNames.report(argument.name)
    }
    return values[argument.name] ?? []
  }

  /// The value of an argument taken once (`.required` or `.optional`); nil when an optional one
  /// was not given.
  func value(_ argument: ArgumentSpec) -> String? { self[argument].first }

  /// The value of a `.required` argument, which ``ParsedArguments/checkedPositionals(for:)``
  /// has made sure is there.
  func required(_ argument: ArgumentSpec) -> String {
    assert(argument.arity == .required, "'\(argument.name)' is not a required argument")
    return self[argument].first ?? ""
  }
}
