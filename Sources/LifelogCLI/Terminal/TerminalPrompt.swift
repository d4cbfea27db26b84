@preconcurrency import Glibc
import LifelogCore

/// Questions asked on the terminal, only when standard input is one (a `lifelog` run from cron or a
/// script never waits for an answer).
///
/// The question goes to standard error, so the output stays clean; a secret is read with echo
/// turned off.
public struct TerminalPrompt: Sendable {
  /// The prompt, when standard input is a terminal.
  public static func ifInteractive() -> TerminalPrompt? {
    isatty(STDIN_FILENO) == 1 ? TerminalPrompt() : nil
  }

  /// Asks a yes/no question; an empty answer takes `defaultAnswer`.
  func confirm(_ question: String, defaultAnswer: Bool) -> Bool {
    write(question + (defaultAnswer ? " [Y/n] " : " [y/N] "))
    guard let answer = readLine(strippingNewline: true)?.lowercased() else { return defaultAnswer }
    if answer.isEmpty { return defaultAnswer }
    return answer.hasPrefix("y")
  }

  /// Asks for one of `choices` (a unique prefix is enough); an empty answer takes the first.
  ///
  /// Asks again after an answer that matches none; nil at end of input.
  func choose(_ question: String, from choices: [String]) -> String? {
    guard let first = choices.first else { return nil }
    while true {
      write("\(question) (\(choices.joined(separator: ", "))) [\(first)] ")
      guard let line = readLine(strippingNewline: true) else { return nil }
      let answer = line.trimmingSpaces().lowercased()
      if answer.isEmpty { return first }
      let matches = choices.filter { $0.lowercased().hasPrefix(answer) }
      if matches.count == 1 { return matches[0] }
      write("Please answer with one of: \(choices.joined(separator: ", "))\n")
    }
  }

  /// Reads a secret without echoing it; nil at end of input.
  ///
  /// Ctrl-C (or a SIGTERM, SIGHUP, SIGQUIT) while echo is off ends the process as it would
  /// anyway, but first puts the terminal back: otherwise the shell the person returns to shows
  /// nothing they type (``restoreTerminalAndReraise(_:)``).
  ///
  /// Echo goes off before the question is shown: `TCSAFLUSH` drops what was typed before it
  /// takes effect, so a question shown first lets a quick typist (or a script driving the
  /// terminal) lose the start of the line, or see it echoed.
  func secret(_ question: String) -> [UInt8]? {
    var original = termios()
    let canSilence = tcgetattr(STDIN_FILENO, &original) == 0
    var previousHandlers: [(Int32, sighandler_t?)] = []
    if canSilence {
      savedTerminal = original
      // Installed before echo goes off, so no moment is left with echo off and no handler.
      previousHandlers = Self.endingSignals.map { ($0, signal($0, restoreTerminalAndReraise)) }
      var silent = original
      silent.c_lflag &= ~tcflag_t(ECHO)
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    }
    write(question)
    defer {
      if canSilence {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        for (number, handler) in previousHandlers { signal(number, handler) }
      }
      write("\n")
    }
    // Only a finished line is an answer: Ctrl-D or an interrupted read mid-entry cancels rather
    // than handing on half a passphrase.
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = read(STDIN_FILENO, &byte, 1)
      if count == 1 {
        if byte == 0x0A { return bytes }
        bytes.append(byte)
      } else if count < 0, errno == EINTR {
        continue
      } else {
        return nil
      }
    }
  }

  /// The signals whose default action ends the process, and so would leave echo off.
  private static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  private func write(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }
}

/// The terminal settings from before echo was turned off, for the signal handler.
///
/// Written only before the handler is installed, so the handler never sees it change.
nonisolated(unsafe) private var savedTerminal = termios()

/// Restores the terminal, then ends the process with the same signal.
///
/// Re-raised, so the exit status still says "interrupted". Only async-signal-safe calls:
/// `tcsetattr`, `write`, `signal`, `raise`.
private func restoreTerminalAndReraise(_ number: Int32) {
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminal)
  var newline: UInt8 = 0x0A
  _ = write(STDERR_FILENO, &newline, 1)
  signal(number, SIG_DFL)
  raise(number)
}
