import LifelogCore

/// Runs `lifelog shell`: each line is split into words and run by ``LifelogCommand/run(_:in:)``,
/// exactly as if typed after `lifelog`; a failing line prints its error and the session goes on.
///
/// Blank lines and lines starting with `#` are skipped; a leading `lifelog` is allowed; `exit`,
/// `quit` or the end of input (Ctrl-D) leave. Each line gets a fresh ``Context`` (the clock read
/// again, the log opened for the line and closed after it, so a failed line cannot leave a
/// transaction open).
struct ShellSession {
  let context: Context
  /// A person at a terminal: a failed line is only that, and the session ends with 0.
  let interactive: Bool

  /// Runs lines until the input ends or says `exit`, and returns the session's exit code: 0, or
  /// for a script the code of the last line that failed (so `lifelog shell < commands.txt &&
  /// ...` stops when something went wrong, and a script's failure says what kind it was).
  func run(_ source: any LineSource) -> Int32 {
    var lastFailure: Int32 = ExitCode.success
    while let line = source.readLine() {
      let trimmed = line.trimmingSpaces()
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      var words: [String]
      do {
        words = try ShellWords.split(trimmed)
      } catch {
        context.errors.write("Error: \(error.message)\n")
        context.errors.flush()
        lastFailure = ExitCode.usage
        continue
      }
      if words == ["exit"] || words == ["quit"] { break }
      // A line typed with a leading space stays out of the history (as in bash's ignorespace).
      if !line.hasPrefix(" ") { source.remember(trimmed) }
      if words.first == "lifelog" { words.removeFirst() }
      if words.first == LifelogCommand.Shell.configuration.commandName {
        context.errors.write(
          "Error: Already in the lifelog shell; type commands here, or 'exit' to leave\n")
        context.errors.flush()
        lastFailure = ExitCode.usage
        continue
      }
      let code = LifelogCommand.run(words, in: context.forShellLine())
      if code != ExitCode.success { lastFailure = code }
    }
    return interactive ? ExitCode.success : lastFailure
  }
}
