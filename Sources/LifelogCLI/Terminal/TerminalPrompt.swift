@preconcurrency import Glibc

/// Questions asked on the terminal, only when standard input is one (a `lifelog` run from cron or
/// a script never waits for an answer). The question goes to standard error, so the output stays
/// clean; a secret is read with echo turned off.
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

  /// Reads a secret without echoing it; nil at end of input.
  func secret(_ question: String) -> [UInt8]? {
    write(question)
    var original = termios()
    let canSilence = tcgetattr(STDIN_FILENO, &original) == 0
    if canSilence {
      var silent = original
      silent.c_lflag &= ~tcflag_t(ECHO)
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    }
    defer {
      if canSilence { tcsetattr(STDIN_FILENO, TCSAFLUSH, &original) }
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

  private func write(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }
}
