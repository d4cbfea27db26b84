import LifelogCore

extension LifelogCommand {
  /// `lifelog settings`: alone, lists every setting with its value.
  struct Settings: Command {
    static let configuration = CommandConfiguration(
      commandName: "settings",
      abstract: "Show or change settings.",
      discussion: "'lifelog settings' alone lists every setting, its value, and what it does.",
      options: [format.spec],
      subcommands: [SettingsGet.self, SettingsSet.self])
    static let format = ChoiceOption.format([OutputFormat.table, .json])

    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      json = try arguments.choice(Self.format) == .json
    }

    /// Warns on standard error about each stored setting value or target that does not read:
    /// it came by sync from a machine that did not check it (docs/sync-protocol.md §3), and the
    /// default (no target) is used instead.
    static func warnAboutIgnoredValues(in store: LogStore, context: Context) throws {
      func shown(_ text: String) -> String {
        TerminalText.visible(text.count > 40 ? text.prefix(39) + "…" : text)
      }
      for (setting, stored) in try store.ignoredSettings() {
        context.errors.write(
          "Warning: the setting \(setting.rawValue) holds '\(shown(stored))', which it does not accept (it came by sync); "
            + "using the default \(setting.defaultValue.isEmpty ? "(not set)" : setting.defaultValue)\n"
        )
      }
      for (name, stored) in try store.ignoredTargets() {
        context.errors.write(
          "Warning: the activity '\(shown(name))' has the target '\(shown(stored))', which is not one lifelog reads "
            + "(it came by sync); it counts as no target\n")
      }
    }

    func run(in context: Context) throws {
      try Self.warnAboutIgnoredValues(in: context.store, context: context)
      let settings = try context.store.allSettings()
      if json {
        var object = JSONObjectWriter()
        for (setting, value, _) in settings { object.add(setting.rawValue, value) }
        context.output.write(object.result + "\n")
        return
      }
      var table = Table([
        .init(title: "KEY"), .init(title: "VALUE"), .init(title: "ABOUT", truncatable: true),
      ])
      for (setting, value, isDefault) in settings {
        let shown = value.isEmpty ? "(not set)" : value + (isDefault ? " (default)" : "")
        table.append([setting.rawValue, shown, setting.summary])
      }
      context.output.write(table.render(width: context.terminalWidth, bold: context.usesColor))
    }
  }

  struct SettingsGet: Command {
    static let configuration = CommandConfiguration(
      commandName: "get",
      abstract: "Print one setting's value.",
      arguments: [key],
      examples: ["lifelog settings get mealGapHours"])
    static let key = ArgumentSpec(
      "key", "mealGapHours, mealGapMinHours, dayStartsAt, weekStartsOn, name, ...",
      completes: .choices(Setting.allCases.map(\.rawValue)))

    let setting: Setting

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      setting = try Setting(
        named: arguments.checkedPositionals(for: Self.configuration).required(Self.key))
    }

    func run(in context: Context) throws {
      context.output.write(try context.store.value(of: setting) + "\n")
    }
  }

  struct SettingsSet: Command {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Change one setting.",
      arguments: [key, value],
      examples: ["lifelog settings set mealGapHours 2.5", "lifelog settings set dayStartsAt 05:00"])
    static let key = ArgumentSpec(
      "key", "The setting to change.", completes: .choices(Setting.allCases.map(\.rawValue)))
    static let value = ArgumentSpec("value", "Its new value.")

    let setting: Setting
    let value: String

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      setting = try Setting(named: positionals.required(Self.key))
      value = try setting.validated(positionals.required(Self.value))
    }

    func run(in context: Context) throws {
      let store = try context.store
      let stored = try store.recordingUndoStep({ "settings set \(setting.rawValue) \($0)" }) {
        try store.set(setting, to: value)
      }
      context.output.write("\(setting.rawValue) = \(stored)\n")
    }
  }
}
