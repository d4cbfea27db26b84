@preconcurrency import Glibc
import LifelogCore

/// The last words of a process that traps (a failed allocation the Swift runtime cannot survive,
/// or a bug): a line on standard error saying what its writes left in the log, as far as
/// ``CommitProgress`` tells, so that nobody runs a saved change again or forgets a lost one.
///
/// The messages are made before anything can fail, since a handler may not allocate; the
/// handler then writes one (trying a failed write again, as ``FileOutput`` does for errors) and
/// hands the signal to the handler found at install (the Swift runtime's backtracer), so the
/// process still ends by the signal.
enum TrapReport {
  /// The signals a trap raises: Swift's `ud2` and `brk`, `abort()`, a bad access.
  static let signals = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

  nonisolated(unsafe) private static var nothingCommitted: UnsafeMutablePointer<CChar>?
  nonisolated(unsafe) private static var committed: UnsafeMutablePointer<CChar>?
  nonisolated(unsafe) private static var uncertain: UnsafeMutablePointer<CChar>?
  nonisolated(unsafe) private static var previous: [Int32: sigaction] = [:]

  static let stopped =
    "Error: lifelog stopped abruptly (the system refused it memory, or an internal error)"

  /// Installs the handler for ``signals``; call once, at the start of the process.
  static func install() {
    nothingCommitted = strdup("\(stopped); nothing was changed. Run the command again\n")
    committed = strdup(
      "\(stopped) after what it had written was saved in the log; do not run the command again "
        + "before looking ('lifelog list')\n")
    uncertain = strdup(
      "\(stopped) while saving to the log, and it cannot tell if the log holds the change; look "
        + "with 'lifelog list' before running the command again\n")
    // A mask inherited from the parent may block them: a handler that cannot run says nothing.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for signal in signals { sigaddset(&unblocked, signal) }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    for signal in signals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = trapHandler
      sigemptyset(&action.sa_mask)
      var old = sigaction()
      if sigaction(signal, &action, &old) == 0 { previous[signal] = old }
    }
  }

  /// The message for the state the process is in now.
  fileprivate static var message: UnsafeMutablePointer<CChar>? {
    switch CommitProgress.state {
    case .nothingCommitted: nothingCommitted
    case .committed: committed
    case .uncertain: uncertain
    }
  }

  /// Puts back the handler found at install for `signal`.
  fileprivate static func restore(_ signal: Int32) {
    guard var old = previous[signal] else {
      Glibc.signal(signal, SIG_DFL)
      return
    }
    sigaction(signal, &old, nil)
  }
}

/// Writes the trap's message, then raises the signal again for the handler found at install
/// (it is delivered when this handler returns: the signal is blocked until then).
private func trapHandler(_ signal: Int32) {
  if let message = TrapReport.message {
    var offset = 0
    let length = strlen(message)
    var attempts = 0
    while offset < length, attempts < 10 {
      let written = write(STDERR_FILENO, message + offset, length - offset)
      if written > 0 { offset += written } else { attempts += 1 }
    }
  }
  TrapReport.restore(signal)
  raise(signal)
}
