@preconcurrency import Glibc
import LifelogCore

/// The last words of a process that traps (a failed allocation the Swift runtime cannot survive,
/// or a bug): a line on standard error saying what its writes left in the log, as far as
/// ``CommitProgress`` tells, so that nobody runs a saved change again or forgets a lost one.
///
/// The handler touches no lazily made Swift global: the first use of one runs a `swift_once`,
/// which a handler may find half done and wait on for ever (seen: a SIGABRT left the process
/// blocked in the accessor of a saved-handlers table). So the messages are literals chosen in
/// the handler, and it puts back the default action (not the Swift runtime's backtracer) before
/// raising the signal again, so the process still ends by the signal.
enum TrapReport {
  /// Installs the handler for the signals a trap raises (Swift's `ud2` and `brk`, `abort()`, a
  /// bad access); call once, at the start of the process.
  ///
  /// Allocates nothing, since the allocation that fails may be the first of the process.
  static func install() {
    // Read once now, so that the handler never makes CommitProgress's storage.
    _ = CommitProgress.state
    // A mask inherited from the parent may block them: a handler that cannot run says nothing.
    // (Each signal by name: an array would allocate.)
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
    sigaction(SIGILL, &action, nil)
    sigaction(SIGTRAP, &action, nil)
    sigaction(SIGABRT, &action, nil)
    sigaction(SIGSEGV, &action, nil)
    sigaction(SIGBUS, &action, nil)
    sigaction(SIGFPE, &action, nil)
  }
}

/// Writes the trap's message (trying a failed write again, as ``FileOutput`` does for errors),
/// then raises the signal again with its default action (delivered when this handler returns:
/// the signal is blocked until then).
private func trapHandler(_ signal: Int32) {
  let message: StaticString
  switch CommitProgress.state {
  case .nothingCommitted:
    message =
      "Error: lifelog stopped abruptly (the system refused it memory, or an internal error); nothing was changed. Run the command again\n"
  case .committed:
    message =
      "Error: lifelog stopped abruptly (the system refused it memory, or an internal error) after what it had written was saved in the log; do not run the command again before looking ('lifelog list')\n"
  case .uncertain:
    message =
      "Error: lifelog stopped abruptly (the system refused it memory, or an internal error) while saving to the log, and it cannot tell if the log holds the change; look with 'lifelog list' before running the command again\n"
  }
  var offset = 0
  let length = message.utf8CodeUnitCount
  var attempts = 0
  while offset < length, attempts < 10 {
    let written = write(STDERR_FILENO, message.utf8Start + offset, length - offset)
    if written > 0 { offset += written } else { attempts += 1 }
  }
  Glibc.signal(signal, SIG_DFL)
  raise(signal)
}
