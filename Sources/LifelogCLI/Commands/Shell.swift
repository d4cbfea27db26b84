@preconcurrency import Glibc

extension LifelogCommand {
  /// `lifelog shell`: commands one per line, typed at a prompt or read from standard input.
  struct Shell: Command {
    static let configuration = CommandConfiguration(
      commandName: "shell",
      abstract: "Run commands one per line, at a prompt or from standard input.",
      discussion: """
        Each line is a lifelog command without 'lifelog' ('add snack apple'), quoted as in a POSIX
        shell; an error is printed and the shell goes on. 'exit', 'quit' or Ctrl-D leave. At a
        terminal, lines are edited with readline: Tab completes commands, options, activity names
        and recent entry ids, and the history is kept in $XDG_STATE_HOME/lifelog/history. From a
        pipe or a file, lines are read with no prompt; the exit code is then that of the last line
        that failed (0 when none did). 'lifelog' alone at a terminal starts the shell too.
        """,
      examples: ["lifelog shell", "lifelog shell < commands.txt"])

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
    }

    func run(in context: Context) throws {
      let interactive = context.inputIsTerminal
      let session = ShellSession(context: context, interactive: interactive)
      guard interactive else {
        let code = session.run(PlainLineReader(descriptor: STDIN_FILENO))
        if code != ExitCode.success { throw ExitStatus(code: code) }
        return
      }
      var history: HistoryFile?
      do {
        history = try ShellHistory(environment: context.environment)?.open()
      } catch {
        context.errors.write("Warning: \(error); the history will not be kept\n")
        context.errors.flush()
      }
      let editor = try LineEditor(history: history, completer: Completer(context: context))
      defer { editor.close() }
      context.output.write(
        "lifelog \(LifelogCommand.version): type a command ('help' lists them), Tab completes, "
          + "Ctrl-D leaves.\n")
      context.output.flush()
      _ = session.run(editor)
      // Ctrl-D leaves the cursor after the prompt; the next prompt belongs on a line of its own.
      if editor.reachedEnd { context.output.write("\n") }
    }
  }
}
