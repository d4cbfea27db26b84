import Foundation
import LifelogTestSupport
import Testing

/// A program running on a pseudo-terminal inside a private tmux server: keys are typed into it
/// and its screen is read back, as a person would see it.
///
/// Every wait is bounded and fails with the screen as it was, so a test can never hang.
public final class TerminalSession {
  /// How long a wait may take before the test fails; generous, as the machine may be busy.
  public static let patience: TimeInterval = 20

  private let socket: String

  /// Starts `arguments` (the program first) on an 100×30 terminal with exactly `environment`.
  public init(
    _ arguments: [String], environment: [String: String], folder: TemporaryDirectory
  ) throws {
    socket = folder.file("tmux-\(UUID().uuidString.prefix(8)).sock")
    // `timeout` ends the program even if the test never does (its process group keeps the terminal).
    let command =
      (["env", "-i"] + environment.map { "\($0)=\($1)" } + ["timeout", "--foreground", "120"]
      + arguments)
      .map(Self.quoted)
    let started = try tmux([
      "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30",
      command.joined(separator: " "),
    ])
    try #require(started.status == 0, "tmux did not start: \(started.stderr)")
  }

  deinit { _ = try? tmux(["kill-server"]) }

  /// Types text literally (no key names).
  public func type(_ text: String) throws { try tmux(["send-keys", "-l", "--", text]) }

  /// Presses keys by tmux name: `Enter`, `Tab`, `Up`, `C-d`.
  public func press(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

  /// The visible screen, spaces at the ends of lines kept (the space Tab adds after a word).
  public func screen() -> String {
    let text = (try? tmux(["capture-pane", "-p", "-N"]).stdout) ?? ""
    return text.trimmingCharacters(in: .newlines)
  }

  /// Types a line, presses Enter, and waits until the screen shows `expected`.
  public func enter(_ line: String, expecting expected: String) throws {
    try type(line)
    try press("Enter")
    try waitFor(expected)
  }

  /// Types text, presses Tab, and waits until the screen shows `expected`.
  public func complete(_ text: String, expecting expected: String) throws {
    try type(text)
    try press("Tab")
    try waitFor(expected)
  }

  /// Waits until the screen shows `text`, and returns the screen.
  @discardableResult
  public func waitFor(_ text: String) throws -> String {
    try waitUntil("the screen to show \(text.debugDescription)") {
      screen().contains(text)
    }
    return screen()
  }

  /// Waits until the screen's last line, without the spaces at its end, is `text` (a fresh
  /// prompt, say, rather than a prompt somewhere above).
  public func waitForLastLine(_ text: String) throws {
    try waitUntil("the last line to be \(text.debugDescription)") {
      let last = screen().split(separator: "\n").last ?? ""
      return last.reversed().drop { $0 == " " }.reversed().elementsEqual(text)
    }
  }

  /// Waits until the program has ended (tmux then closes the session and stops).
  public func waitForExit() throws {
    try waitUntil("the program to end") {
      (try? tmux(["has-session"]).status) != 0
    }
  }

  private func waitUntil(_ what: String, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(Self.patience)
    while !condition() {
      if Date() > deadline {
        throw TerminalTimeout(message: "Gave up waiting for \(what); the screen:\n\(screen())")
      }
      usleep(50_000)
    }
  }

  @discardableResult
  private func tmux(_ arguments: [String]) throws -> Subprocess.Output {
    try Subprocess.run("tmux", ["-S", socket] + arguments)
  }

  private static func quoted(_ word: String) -> String {
    "'" + word.replacing("'", with: "'\\''") + "'"
  }
}

public struct TerminalTimeout: Error, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}
