/// Renders `--help` in the layout of swift-argument-parser: OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS (then EXAMPLES), entries indented two spaces with descriptions at column 26.
enum HelpFormatter {
  private static let labelWidth = 24
  private static let lineWidth = 80

  /// The full help of a command; `path` is its name after `lifelog` (`["activity", "add"]`).
  static func help(for configuration: CommandConfiguration, path: [String]) -> String {
    var text = "OVERVIEW: \(configuration.abstract)\n"
    if let discussion = configuration.discussion { text += "\n\(discussion)\n" }
    text += "\nUSAGE: \(usage(for: configuration, path: path))\n"
    if !configuration.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in configuration.arguments {
        text += entry(label: "<\(argument.name)>", help: argument.help)
      }
    }
    text += "\nOPTIONS:\n"
    for option in configuration.allOptions {
      var help = option.help
      if let value = option.defaultValue { help += " (default: \(value))" }
      if option.repeatable { help += " (repeatable)" }
      text += entry(label: option.label, help: help)
    }
    if !configuration.subcommands.isEmpty {
      text += "\nSUBCOMMANDS:\n"
      for command in configuration.visibleSubcommands {
        text += entry(
          label: command.configuration.commandName, help: command.configuration.abstract)
      }
      text +=
        "\n  See 'lifelog help \(path.joined(separator: " "))\(path.isEmpty ? "" : " ")<subcommand>' "
        + "for detailed help.\n"
    }
    if !configuration.examples.isEmpty {
      text += "\nEXAMPLES:\n"
      for example in configuration.examples { text += "  \(example)\n" }
    }
    return text
  }

  /// `lifelog add <activity> [<note>] [--at <time>] ...`.
  static func usage(for configuration: CommandConfiguration, path: [String]) -> String {
    var parts = ["lifelog"] + path
    if !configuration.subcommands.isEmpty {
      // A group that also runs alone (`lifelog activity`) makes its subcommand optional.
      parts.append(
        configuration.options.isEmpty || path.isEmpty
          ? "<subcommand>" : "[<subcommand>] [<options>]")
      return parts.joined(separator: " ")
    }
    parts += configuration.arguments.map(\.usage)
    var full = parts
    for option in configuration.options {
      let label = option.key + (option.valueName.map { " <\($0)>" } ?? "")
      full.append("[\(label)]" + (option.repeatable ? " ..." : ""))
    }
    let line = full.joined(separator: " ")
    // Like swift-argument-parser: a usage too long for one line names the options as a group.
    guard "USAGE: ".count + line.count > lineWidth, !configuration.options.isEmpty else {
      return line
    }
    return (parts + ["[<options>]"]).joined(separator: " ")
  }

  /// One help line: the label, then its description from column 26 (on the next line when the
  /// label is too long to leave room).
  private static func entry(label: String, help: String) -> String {
    let indent = String(repeating: " ", count: labelWidth + 2)
    let lines = wrap(help, width: lineWidth - indent.count)
    let body = lines.joined(separator: "\n" + indent) + "\n"
    let indented = "  " + label
    if label.count < labelWidth - 1 {
      return indented + String(repeating: " ", count: labelWidth - label.count) + body
    }
    return indented + "\n" + indent + body
  }

  /// Splits text into lines of at most `width` characters, breaking at spaces.
  private static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty, current.count + 1 + word.count > width {
        lines.append(current)
        current = ""
      }
      current += (current.isEmpty ? "" : " ") + word
    }
    return lines + [current]
  }
}
