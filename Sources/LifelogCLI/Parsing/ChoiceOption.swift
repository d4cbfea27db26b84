/// An option whose value is one of a closed list, read as `Value` (``ParsedArguments/choice(_:)``):
/// help, completion and the error for another word all list the same choices, and a command
/// compares typed values (`== .json`), never strings.
struct ChoiceOption<Value: RawRepresentable & Sendable>: Sendable where Value.RawValue == String {
  /// The option as the configuration lists it; its completion offers ``choices``.
  let spec: OptionSpec
  /// The values it accepts, in the order help lists them.
  let choices: [Value]

  init(
    _ names: [String], value: String, help: String, default defaultValue: String? = nil,
    choices: [Value]
  ) {
    self.init(
      spec: OptionSpec(
        names, value: value, help: help, default: defaultValue,
        completes: .choices(choices.map(\.rawValue))),
      choices: choices)
  }

  private init(spec: OptionSpec, choices: [Value]) {
    self.spec = spec
    self.choices = choices
  }

  /// `--format <format>`: one of `choices`, the first being the default
  /// (``OptionSpec/format(_:)``).
  static func format(_ choices: [Value]) -> ChoiceOption {
    ChoiceOption(spec: OptionSpec.format(choices.map(\.rawValue)), choices: choices)
  }

  /// The choice spelled `name` exactly; nil for any other word (a default such as "the locale"
  /// that describes rather than names one).
  func choice(named name: String) -> Value? {
    choices.first { $0.rawValue == name }
  }
}

/// `--format text|json`: a command that prints either words for people or one JSON document.
enum TextOrJSON: String, CaseIterable, Sendable {
  case text, json
}

extension TextOrJSON {
  /// `--format <format>`: text (the default) or json.
  static let option = ChoiceOption.format(allCases)
}
