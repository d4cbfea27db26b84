import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// A symbolic link planted where lifelog creates a file of its own is refused, never followed.
///
/// Followed, a link at the shell's history or the server's database would have lifelog create or
/// append to the file it names. Through the real binary.
@Suite struct PlantedLinkTests {
  let folder = TemporaryDirectory()

  /// The shell's environment: its history goes to `state/lifelog/history` in the folder.
  var shellEnvironment: [String: String] {
    [
      "LIFELOG_DB": folder.file("lifelog.db"), "TZ": "Europe/Warsaw",
      "LIFELOG_NOW": "2026-12-02T12:00:00+01:00", "XDG_STATE_HOME": folder.file("state"),
      "HOME": folder.file("home"), "TERM": "screen", "PATH": "/usr/bin:/bin",
    ]
  }

  /// A file someone else owns in spirit: the link points at it, and it must stay as it is.
  func victim() throws -> String {
    let path = folder.file("victim.txt")
    try "untouched\n".write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  @Test func aLinkAtTheServersDatabaseStopsItWith78() throws {
    let data = folder.file("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    // Followed, the link would have the server make its database where the link points.
    let target = folder.file("elsewhere.db")
    try FileManager.default.createSymbolicLink(
      atPath: data + "/server.db", withDestinationPath: target)
    let result = try LifelogProcess.run(["serve", "user", "add", "alice", "--data", data])
    #expect(result.exitCode == 78, "\(result)")
    #expect(result.stderr.contains("'\(data)/server.db'"), "\(result.stderr)")
    #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  @Test func aLinkAtTheShellHistoryIsRefusedAndTheShellRunsWithoutHistory() throws {
    try #require(Subprocess.exists("tmux"), "tmux is needed (make test installs it)")
    let state = folder.file("state/lifelog")
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    let target = try victim()
    try FileManager.default.createSymbolicLink(
      atPath: state + "/history", withDestinationPath: target)
    let terminal = try TerminalSession(
      [LifelogProcess.binaryPath, "shell"], environment: shellEnvironment, folder: folder)
    // The warning is longer than the terminal is wide: read the screen's lines as one.
    let screen = try terminal.waitFor("lifelog> ").replacingOccurrences(of: "\n", with: "")
    #expect(screen.contains("is a symbolic link, which lifelog does not follow"), "\(screen)")
    #expect(screen.contains("the history will not be kept"), "\(screen)")
    try terminal.enter("status --format json", expecting: "\"pendingRows\"")
    try terminal.press("C-d")
    try terminal.waitForExit()
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched\n")
  }

  /// A link planted at the history's path after the shell opened it is never followed: the
  /// history is read and written through the descriptor opened with `O_NOFOLLOW`, not by path.
  @Test func aLinkPlantedAtTheShellHistoryWhileTheShellRunsIsNeverFollowed() throws {
    try #require(Subprocess.exists("tmux"), "tmux is needed (make test installs it)")
    let state = folder.file("state/lifelog")
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    let history = state + "/history"
    try "status --format json\n".write(toFile: history, atomically: false, encoding: .utf8)
    let target = try victim()
    let terminal = try TerminalSession(
      [LifelogProcess.binaryPath, "shell"], environment: shellEnvironment, folder: folder)
    try terminal.waitFor("lifelog> ")
    try FileManager.default.removeItem(atPath: history)
    try FileManager.default.createSymbolicLink(atPath: history, withDestinationPath: target)
    try terminal.press("Up")
    try terminal.waitFor("lifelog> status --format json")
    try terminal.press("Enter")
    try terminal.waitFor("\"pendingRows\"")
    try terminal.enter("list --limit 1", expecting: "lifelog> list --limit 1")
    try terminal.waitForLastLine("lifelog>")
    try terminal.press("C-d")
    try terminal.waitForExit()
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched\n")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: history) == target)
  }
}
