import Foundation
@preconcurrency import Glibc
import LifelogTestSupport
import Testing

@testable import LifelogCLI

/// The shell's history file: what a trim keeps, that a failed read never rewrites it, and that
/// a shell whose file was replaced by another shell's trim follows the path to the new file.
@Suite struct HistoryFileTests {
  let folder = TemporaryDirectory(prefix: "lifelog-history-file")
  var path: String { folder.file("lifelog/history") }

  /// The history as `lifelog shell` opens it, with XDG_STATE_HOME set to the folder.
  func openHistory() throws -> HistoryFile {
    let history = try #require(ShellHistory(environment: ["XDG_STATE_HOME": folder.path]))
    #expect(history.path == path)
    return try history.open()
  }

  /// `count` lines "command N" (N from 1), each padded to about `width` bytes.
  func writeLines(_ count: Int, width: Int = 20) throws {
    try FileManager.default.createDirectory(
      atPath: folder.file("lifelog"), withIntermediateDirectories: true)
    let text = (1...count).map { number in
      let line = "command \(number)"
      return line + String(repeating: " ", count: max(0, width - line.utf8.count)) + "x\n"
    }.joined()
    try text.write(toFile: path, atomically: false, encoding: .utf8)
  }

  func linesAtPath() throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  /// Over 1 MiB of valid lines: the last 1 MiB is read (its first, partial line dropped) and
  /// the file is cut back to the last 1,000 lines, never emptied.
  @Test func aFileOverOneMebibyteIsTrimmedToItsLastThousandLines() throws {
    try writeLines(3000, width: 700)
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 1 << 20)
    let file = try openHistory()
    file.trim()
    let kept = try linesAtPath()
    #expect(kept.count == ShellHistory.limit)
    #expect(kept.first?.hasPrefix("command 2001 ") == true, "\(kept.first ?? "none")")
    #expect(kept.last?.hasPrefix("command 3000 ") == true, "\(kept.last ?? "none")")
  }

  /// A read that fails (here: a descriptor open for writing only, as an I/O error would) leaves
  /// the file as it is: a trim from no lines would replace the history with an empty file.
  @Test func aFailedReadNeverRewritesTheFile() throws {
    try writeLines(3000, width: 700)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    try #require(descriptor >= 0)
    let file = HistoryFile(descriptor: descriptor, path: path)
    #expect(file.lines().isEmpty)
    file.trim()
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  /// Shell A trims (a rename puts a new file at the path) while shell B has the old file open:
  /// B's next line goes to the new file, and B's own trim keeps what A added.
  @Test func aShellWhoseFileWasReplacedAppendsToTheFileAtThePath() throws {
    try writeLines(1005)
    let first = try openHistory()
    let second = try openHistory()
    first.trim()
    first.append("typed in the first shell")
    second.append("typed in the second shell")
    let typed = ["typed in the first shell", "typed in the second shell"]
    #expect(try linesAtPath().suffix(2) == typed[...])
    second.trim()
    let kept = try linesAtPath()
    #expect(kept.count == ShellHistory.limit)
    #expect(kept.suffix(2) == typed[...])
  }

  /// A link put at the path in place of the file is still refused: the line is not written
  /// through it, and a trim leaves it.
  @Test func aLinkThatReplacedTheFileIsNotFollowed() throws {
    try writeLines(1005)
    let file = try openHistory()
    let victim = folder.file("victim")
    try "untouched\n".write(toFile: victim, atomically: false, encoding: .utf8)
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
    file.append("typed after the link")
    file.trim()
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched\n")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == victim)
  }
}
