@preconcurrency import CLifelogReadline
@preconcurrency import Glibc

/// Lines typed at a terminal, through GNU readline: editing, history kept in a file, and Tab
/// completion from ``Completer``.
///
/// readline is loaded when the first editor is made (see `CLifelogReadline`), so no other
/// command pays for it. There is one terminal, so one editor at a time.
final class LineEditor: LineSource {
  static let prompt = "lifelog> "

  private let history: HistoryFile?
  /// Whether the input ended (Ctrl-D) rather than an `exit`.
  private(set) var reachedEnd = false

  /// - Throws: a ``ConfigurationError`` when libreadline cannot be loaded.
  init(history: HistoryFile?, completer: Completer) throws {
    var error = [CChar](repeating: 0, count: 512)
    guard lr_load(&error, error.count) == 0 else {
      let message = String(
        decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ConfigurationError(
        "Cannot start the interactive shell: \(message); or pipe commands in: lifelog shell < commands.txt"
      )
    }
    activeCompleter = completer
    lr_configure("lifelog", completeForReadline)
    lr_limit_history(Int32(ShellHistory.limit))
    self.history = history
    for line in history?.lines() ?? [] { lr_add_history(line) }
  }

  func readLine() -> String? {
    guard let line = lr_readline(LineEditor.prompt) else {
      reachedEnd = true
      return nil
    }
    defer { lr_free(line) }
    return String(cString: line)
  }

  func remember(_ line: String) {
    lr_add_history(line)
    history?.append(line)
  }

  /// Cuts the history file back to its limit.
  func close() {
    history?.trim()
    activeCompleter = nil
  }
}

/// The completer of the editor reading now (readline's callback is a plain C function).
nonisolated(unsafe) private var activeCompleter: Completer?

/// readline's Tab: hands the candidates for the word being typed back to readline.
private func completeForReadline(before: UnsafePointer<CChar>?, word: UnsafePointer<CChar>?) {
  guard let completer = activeCompleter, let before, let word else { return }
  let line = String(cString: before)
  var words = ShellWords.splitLeniently(line)
  // The text just before the word is an opening quote, not a word of its own.
  if let last = line.last, last != " ", last != "\t", !words.isEmpty { words.removeLast() }
  switch completer.candidates(after: words, current: String(cString: word)) {
  case .files:
    lr_complete_files()
  case .words(let candidates):
    for candidate in candidates {
      lr_add_candidate(candidate.replacing(" ", with: "\\ "))
    }
  }
}
