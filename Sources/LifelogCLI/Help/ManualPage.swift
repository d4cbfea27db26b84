/// The manual page `lifelog.1`, in roff, written from the command configurations.
///
/// Every command, argument, option and example comes from the same ``CommandConfiguration`` that
/// parsing and `--help` read, so the page cannot drift from the program; `docs/lifelog.1` is this
/// output, and a test fails when it is out of date. Only the sections about the environment and
/// exit codes are written here.
enum ManualPage {
  static func render() -> String {
    let root = LifelogCommand.configuration
    var page = """
      .TH LIFELOG 1 "" "lifelog \(LifelogCommand.version)" "User Commands"
      .SH NAME
      lifelog \\- \(escape(lowercasedFirst(root.abstract.dropLast())))
      .SH SYNOPSIS
      .B lifelog
      [\\fB\\-\\-db\\fR \\fIpath\\fR]
      \\fIcommand\\fR [\\fIargument\\fR ...] [\\fIoption\\fR ...]
      .br
      .B lifelog
      [\\fB\\-\\-version\\fR | \\fB\\-\\-help\\fR]
      .SH DESCRIPTION
      \(escape(root.discussion ?? root.abstract))
      .PP
      \\fBlifelog\\fR alone, at a terminal, starts \\fBlifelog shell\\fR; otherwise it prints help.
      Options may come before, between or after the arguments; \\fB\\-\\-\\fR ends them.
      .SH OPTIONS

      """
    page += root.allOptions.map(option).joined()
    page += ".SH COMMANDS\n"
    for command in root.visibleSubcommands where command.configuration.commandName != "help" {
      page += section(for: command.configuration, path: [command.configuration.commandName])
    }
    page += staticSections
    return page
  }

  /// A command's section, then its subcommands' sections.
  private static func section(for configuration: CommandConfiguration, path: [String]) -> String {
    var text = ".SS \"lifelog \(path.joined(separator: " "))\"\n"
    text += escape(HelpFormatter.usage(for: configuration, path: path)) + "\n.PP\n"
    text += escape(configuration.abstract) + "\n"
    if let discussion = configuration.discussion { text += ".PP\n" + escape(discussion) + "\n" }
    for argument in configuration.arguments {
      text += ".TP\n\\fI\(escape(argument.name))\\fR\n\(escape(argument.help))\n"
    }
    text += configuration.options.map(option).joined()
    if !configuration.examples.isEmpty {
      text += ".PP\nExamples:\n.PP\n.RS\n.nf\n"
      text += configuration.examples.map { escape($0) + "\n" }.joined()
      text += ".fi\n.RE\n"
    }
    for command in configuration.visibleSubcommands {
      text += section(for: command.configuration, path: path + [command.configuration.commandName])
    }
    return text
  }

  private static func option(_ option: OptionSpec) -> String {
    let names = option.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
    let value = option.valueName.map { " \\fI\(escape($0))\\fR" } ?? ""
    var help = option.help
    if let defaultValue = option.defaultValue { help += " (default: \(defaultValue))" }
    if option.repeatable { help += " (repeatable)" }
    return ".TP\n\(names)\(value)\n\(escape(help))\n"
  }

  /// Text made safe for roff: backslashes and dashes escaped, letters beyond ASCII as `\[u0142]`
  /// (groff reads its input as Latin-1 and warns about the bytes of UTF-8), no line starting with
  /// a control character, blank lines dropped (roff would print them).
  static func escape(_ text: some StringProtocol) -> String {
    text.split(separator: "\n").map { line -> String in
      var escaped = ""
      for scalar in line.unicodeScalars {
        switch scalar {
        case "\\": escaped += "\\e"
        case "-": escaped += "\\-"
        case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
        default: escaped += "\\[u" + hex4(scalar.value) + "]"
        }
      }
      if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
      return escaped
    }.joined(separator: "\n")
  }

  /// At least four upper-case hex digits, as groff's `\[uXXXX]` wants them.
  private static func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private static func lowercasedFirst(_ text: some StringProtocol) -> String {
    (text.first.map { $0.lowercased() } ?? "") + text.dropFirst()
  }

  private static let staticSections = #"""
    .SH ENVIRONMENT
    .TP
    .B LIFELOG_DB
    The log to use; \fB\-\-db\fR wins over it.
    .TP
    .B XDG_DATA_HOME
    The log is \fI$XDG_DATA_HOME/lifelog/lifelog.db\fR (else \fI~/.local/share/lifelog/lifelog.db\fR).
    .TP
    .B XDG_STATE_HOME
    The shell keeps its history in \fI$XDG_STATE_HOME/lifelog/history\fR (else \fI~/.local/state/lifelog/history\fR).
    .TP
    .B TZ
    The time zone times are read and shown in.
    .TP
    .B NO_COLOR
    Any non\-empty value turns colour off.
    .TP
    .B LIFELOG_TOKEN
    The token of an HTTP remote when \fB\-\-token\-file\fR is not given.
    .TP
    .B LIFELOG_NOW
    A fixed "now" (ISO 8601 with an offset), for tests and demos.
    .SH EXIT STATUS
    0 ok; 1 unexpected failure; 64 usage error; 65 bad input data; 66 input file missing;
    69 remote unavailable; 73 cannot create (the log, an output file, or the lock file beside the
    log, for its permissions or what is at its path); 74 I/O error (the disk failed or is full);
    75 try again (the log or a sync is busy); 77 authentication refused; 78 configuration error.
    .SH FILES
    .TP
    .I ~/.local/share/lifelog/lifelog.db
    The log (SQLite).
    .TP
    .I ~/.local/state/lifelog/history
    The history of \fBlifelog shell\fR.
    .SH SEE ALSO
    The documentation in the source tree: \fIREADME.md\fR, \fIdocs/cli.md\fR, \fIdocs/sync\-protocol.md\fR.

    """#
}

extension LifelogCommand {
  /// `lifelog __manpage`: prints the manual page (what `docs/lifelog.1` holds).
  struct ManualPageCommand: Command {
    static let configuration = CommandConfiguration(
      commandName: "__manpage",
      abstract: "Print the manual page lifelog.1 (roff).",
      usesDatabase: false, hidden: true)

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
    }

    func run(in context: Context) throws {
      context.output.write(ManualPage.render())
    }
  }
}
