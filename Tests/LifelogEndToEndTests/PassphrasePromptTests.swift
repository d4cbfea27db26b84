import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// The passphrase prompt on a real terminal (tmux): Ctrl-C while echo is off must not leave the
/// person's shell without echo.
@Suite struct PassphrasePromptTests {
  let folder = TemporaryDirectory(prefix: "lifelog-passphrase-prompt")

  @Test func ctrlCAtThePassphrasePromptLeavesTheTerminalEchoingAgain() throws {
    try #require(Subprocess.exists("tmux"), "tmux is needed (make test installs it)")
    let laptop = SyncMachine("laptop", in: folder)
    var environment = laptop.environment
    environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    // Through sh, which outlives the interrupt (its trap runs a command, so the child still gets
    // the default action) and then prints the terminal's echo flag as `stty` reports it.
    let script = """
      trap 'true' INT; "$0" "$@"; echo "exit=$?"; \
      stty -a | tr ' ' '\\n' | grep -x -e echo -e -echo | sed 's/^/flag=/'; sleep 60
      """
    let terminal = try TerminalSession(
      [
        "/bin/sh", "-c", script, LifelogProcess.binaryPath, "remote", "add", "usb",
        folder.file("remote"),
      ],
      environment: environment, folder: folder)
    try terminal.waitFor("end to end, so the remote never sees your entries? [Y/n]")
    try terminal.press("Enter")
    try terminal.waitFor("New passphrase for 'usb':")
    try terminal.type("half a secr")
    try terminal.press("C-c")
    let screen = try terminal.waitFor("flag=")
    #expect(screen.contains("exit=130"), "lifelog ends as interrupted:\n\(screen)")
    #expect(
      screen.contains("flag=echo") && !screen.contains("flag=-echo"),
      "echo is still off:\n\(screen)")
    #expect(!screen.contains("half a secr"), "the passphrase was echoed:\n\(screen)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("remote")), "nothing was created")
  }
}
