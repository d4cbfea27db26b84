import LifelogCore

/// A command line split into option values, flags and positional arguments, checked against a
/// ``CommandConfiguration``.
///
/// Accepts `--name value`, `--name=value`, short names (`-h`), and `--` to end options (so a note
/// may start with a dash). Every option must be one the command declares.
struct ParsedArguments {
  private(set) var values: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []
  /// The options the command declares (``CommandConfiguration/allOptions``): the typed accessors
  /// read their choices and defaults here, so help and parsing cannot disagree.
  let options: [OptionSpec]

  init(_ arguments: [String], configuration: CommandConfiguration) throws(UsageError) {
    let options = configuration.allOptions
    self.options = options
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-"
        || ParsedArguments.isNumber(argument)
      {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = options.first(where: { $0.names.contains(name) }) else {
        throw ParsedArguments.unknownOption(name, options: options)
      }
      guard option.valueName != nil else {
        if inlineValue != nil { throw UsageError("Option '\(name)' takes no value") }
        flags.insert(option.key)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.count {
        value = arguments[index]
        index += 1
      } else {
        throw UsageError("Missing value for '\(option.label)'")
      }
      if values[option.key] != nil, !option.repeatable {
        throw UsageError("Option '\(option.key)' was given more than once")
      }
      values[option.key, default: []].append(value)
    }
  }

  /// The value of an option given once, or nil.
  ///
  /// Every accessor takes one of the ``OptionSpec`` values the command lists in its
  /// configuration, so a misspelt option does not compile; a spec the configuration leaves out is
  /// a programmer error (``UndeclaredNames``), never a silent nil.
  func value(_ option: OptionSpec) -> String? {
    checkDeclared(option)
    return values[option.key]?.last
  }

  /// All values of a repeatable option, in order.
  func all(_ option: OptionSpec) -> [String] {
    checkDeclared(option)
    return values[option.key] ?? []
  }

  /// Whether a flag (an option that takes no value) was given.
  func flag(_ option: OptionSpec) -> Bool {
    checkDeclared(option)
    return flags.contains(option.key)
  }

  /// The value of an option given once, else the default its ``OptionSpec`` shows in help.
  func valueOrDefault(_ option: OptionSpec) -> String? {
    value(option) ?? declared(option)?.defaultValue
  }

  /// The value of an option that only some of the commands sharing this parse declare (`today`
  /// reuses `list`'s without `--from`; the meal report has no `--by`): nil where undeclared.
  func valueIfDeclared(_ option: OptionSpec) -> String? {
    declared(option) != nil ? value(option) : nil
  }

  /// The option as the command's configuration declares it (the same long name).
  private func declared(_ option: OptionSpec) -> OptionSpec? {
    options.first { $0.key == option.key }
  }

  private func checkDeclared(_ option: OptionSpec) {
    if declared(option) == nil { UndeclaredNames.report(option.key) }
  }

  /// The value of an option that offers a closed list of choices, spelled as help lists it:
  /// matched without regard to case (`--format TABLE` is `.table`); when not given, its default
  /// if that is one of the choices, else nil.
  ///
  /// - Throws: ``UsageError`` (exit 64) for a value that is none of the choices.
  func choice<Value>(_ option: ChoiceOption<Value>) throws(UsageError) -> Value? {
    checkDeclared(option.spec)
    guard let spec = declared(option.spec) else { return nil }
    let choices = option.choices.map(\.rawValue)
    guard let text = values[spec.key]?.last else {
      return spec.defaultValue.flatMap(option.choice(named:))
    }
    guard let choice = choices.first(where: { $0.lowercased() == text.lowercased() }) else {
      throw UsageError(
        "Unknown \(spec.valueName ?? "value") '\(text)'; use one of: "
          + choices.joined(separator: ", "))
    }
    return option.choice(named: choice)
  }

  /// Whether `-h`/`--help` was given.
  var wantsHelp: Bool { flags.contains("--help") }

  /// Checks the positional arguments against the declared ones and returns them, read by their
  /// ``ArgumentSpec``.
  func checkedPositionals(
    for configuration: CommandConfiguration
  ) throws(UsageError) -> Positionals {
    var remaining = positionals[...]
    var result: [String: [String]] = [:]
    for spec in configuration.arguments {
      switch spec.arity {
      case .required:
        guard let value = remaining.popFirst() else {
          throw UsageError("Missing expected argument '\(spec.usage)'")
        }
        result[spec.name] = [value]
      case .optional:
        if let value = remaining.popFirst() { result[spec.name] = [value] }
      case .oneOrMore, .zeroOrMore:
        guard spec.arity == .zeroOrMore || !remaining.isEmpty else {
          throw UsageError("Missing expected argument '\(spec.usage)'")
        }
        result[spec.name] = Array(remaining)
        remaining = []
      }
    }
    if let extra = remaining.first {
      throw UsageError("Unexpected argument '\(extra)'")
    }
    return Positionals(result, declared: configuration.arguments)
  }

  /// `-2h` and `-5` are values, not options.
  static func isNumber(_ argument: String) -> Bool {
    argument.count > 1 && argument.dropFirst().first.map { ("0"..."9").contains($0) } == true
  }

  /// Options people reach for that lifelog spells another way, with the spelling it takes.
  static let synonyms: [String: String] = [
    "--time": "--at", "--when": "--at", "--date": "--at", "--on": "--at",
    "--notes": "--note", "--comment": "--note", "--text": "--note", "--message": "--note",
    "--quantity": "--qty", "--amount": "--qty", "--count": "--qty",
    "--tags": "--tag", "--type": "--kind", "--length": "--duration", "--for": "--duration",
    "--since": "--from", "--until": "--to", "--json": "--format json", "--csv": "--format csv",
    "--output-format": "--format", "--database": "--db", "-n": "--limit",
  ]

  private static func unknownOption(_ name: String, options: [OptionSpec]) -> UsageError {
    let known = options.flatMap(\.names)
    if let synonym = synonyms[name.lowercased()],
      known.contains(String(synonym.prefix { $0 != " " }))
    {
      return UsageError("Unknown option '\(name)'; did you mean '\(synonym)'?")
    }
    let near = Suggestions.nearest(
      to: name, in: known.filter { $0.hasPrefix("--") }, limit: 1)
    let hint = near.first.map { "; did you mean '\($0)'?" } ?? ""
    return UsageError("Unknown option '\(name)'\(hint)")
  }
}
