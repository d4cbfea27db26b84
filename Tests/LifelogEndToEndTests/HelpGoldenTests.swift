import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// Every command's `--help`, byte for byte as the real binary prints it, against the golden files
/// in `Golden/help/` (`<command>.txt`, `remote-add.txt` for `remote add`).
///
/// A change to any help text shows up here as a diff to review; `make golden` (or
/// `RECORD_SNAPSHOTS=1`) writes the files again (docs/testing.md). The commands are found by
/// following the SUBCOMMANDS lists of the help itself, so a new command gets a golden file (and
/// fails once, until it is looked at) without this test being told.
@Suite struct HelpGoldenTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden/help")

  /// The names listed under `SUBCOMMANDS:` in one help text.
  static func subcommands(in help: String) -> [String] {
    var names: [String] = []
    var inList = false
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "SUBCOMMANDS:" {
        inList = true
      } else if inList {
        guard line.hasPrefix("  "), !line.hasPrefix("  See ") else {
          if line.isEmpty { break } else { continue }
        }
        let name = line.dropFirst(2).prefix { $0 != " " }
        if !name.isEmpty { names.append(String(name)) }
      }
    }
    return names
  }

  /// Every command path, `[]` for `lifelog` itself, parents before their subcommands.
  static func commands() throws -> [[String]] {
    var found: [[String]] = []
    var queue: [[String]] = [[]]
    while let command = queue.first {
      queue.removeFirst()
      found.append(command)
      let help = try LifelogProcess.run(command + ["--help"]).stdout
      queue += subcommands(in: help).map { command + [$0] }
    }
    return found
  }

  static func fileName(_ command: [String]) -> String {
    (command.isEmpty ? "lifelog" : command.joined(separator: "-")) + ".txt"
  }

  @Test func everyCommandsHelpIsItsGoldenFileByteForByte() throws {
    let commands = try Self.commands()
    #expect(commands.count > 30, "found only \(commands.map(Self.fileName))")
    for command in commands {
      let result = try LifelogProcess.run(command + ["--help"])
      #expect(result.exitCode == 0, "\(command): \(result)")
      #expect(result.stderr.isEmpty, "\(command): \(result)")
      assertGoldenFile(
        result.stdout, at: Self.folder.appendingPathComponent(Self.fileName(command)))
    }
  }

  @Test func everyGoldenFileBelongsToACommandThatExists() throws {
    let expected = Set(try Self.commands().map(Self.fileName))
    let present = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path))
    #expect(present.subtracting(expected).sorted() == [], "remove the files of commands now gone")
  }

  @Test func theSubcommandListIsReadFromTheHelpAsPrinted() {
    let help = """
      OPTIONS:
        -h, --help              Show help information.

      SUBCOMMANDS:
        add                     Create or join a folder remote, or join a lifelog
                                server.
        list                    List the remotes.

        See 'lifelog help remote <subcommand>' for detailed help.
      """
    #expect(Self.subcommands(in: help) == ["add", "list"])
  }
}
