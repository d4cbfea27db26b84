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
  /// The messages, static: installing allocates nothing, since the allocation that fails may be
  /// the first of the process.
  static let nothingCommitted: StaticString =
    "Error: lifelog stopped abruptly (the system refused it memory, or an internal error); nothing was changed. Run the command again\n"
  static let committed: StaticString =
    "Error: lifelog stopped abruptly (the system refused it memory, or an internal error) after what it had written was saved in the log; do not run the command again before looking ('lifelog list')\n"
  static let uncertain: StaticString =
    "Error: lifelog stopped abruptly (the system refused it memory, or an internal error) while saving to the log, and it cannot tell if the log holds the change; look with 'lifelog list' before running the command again\n"

  /// The handlers found at install, one per signal, in the order of ``install()`` (fixed storage:
  /// no allocation).
  nonisolated(unsafe) fileprivate static var previous = (
    sigaction(), sigaction(), sigaction(), sigaction(), sigaction(), sigaction()
  )

  /// Installs the handler for the signals a trap raises (Swift's `ud2` and `brk`, `abort()`, a
  /// bad access); call once, at the start of the process.
  static func install() {
    // A mask inherited from the parent may block them: a handler that cannot run says nothing.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    sigaddset(&unblocked, SIGILL)
    sigaddset(&unblocked, SIGTRAP)
    sigaddset(&unblocked, SIGABRT)
    sigaddset(&unblocked, SIGSEGV)
    sigaddset(&unblocked, SIGBUS)
    sigaddset(&unblocked, SIGFPE)
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = trapHandler
    sigemptyset(&action.sa_mask)
    sigaction(SIGILL, &action, &previous.0)
    sigaction(SIGTRAP, &action, &previous.1)
    sigaction(SIGABRT, &action, &previous.2)
    sigaction(SIGSEGV, &action, &previous.3)
    sigaction(SIGBUS, &action, &previous.4)
    sigaction(SIGFPE, &action, &previous.5)
  }

  /// The message for the state the process is in now.
  fileprivate static var message: StaticString {
    switch CommitProgress.state {
    case .nothingCommitted: nothingCommitted
    case .committed: committed
    case .uncertain: uncertain
    }
  }

  /// Puts back the handler found at install for `signal`.
  fileprivate static func restore(_ signal: Int32) {
    switch signal {
    case SIGILL: sigaction(signal, &previous.0, nil)
    case SIGTRAP: sigaction(signal, &previous.1, nil)
    case SIGABRT: sigaction(signal, &previous.2, nil)
    case SIGSEGV: sigaction(signal, &previous.3, nil)
    case SIGBUS: sigaction(signal, &previous.4, nil)
    case SIGFPE: sigaction(signal, &previous.5, nil)
    default: Glibc.signal(signal, SIG_DFL)
    }
  }
}

/// Writes the trap's message, then raises the signal again for the handler found at install
/// (it is delivered when this handler returns: the signal is blocked until then).
private func trapHandler(_ signal: Int32) {
  let message = TrapReport.message
  var offset = 0
  let length = message.utf8CodeUnitCount
  var attempts = 0
  while offset < length, attempts < 10 {
    let written = write(STDERR_FILENO, message.utf8Start + offset, length - offset)
    if written > 0 { offset += written } else { attempts += 1 }
  }
  TrapReport.restore(signal)
  raise(signal)
}
