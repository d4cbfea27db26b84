import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogCLI

/// A command reads only the arguments and options it declares: a misspelt name is reported as a
/// programmer error (``UndeclaredNames``) instead of reading as absent, and every command's
/// examples parse without one.
@Suite struct DeclaredNamesTests {
  static let configuration = CommandConfiguration(
    commandName: "demo", abstract: "A demo.",
    arguments: [ArgumentSpec("name", "A name.")],
    options: [OptionSpec(["--user"], value: "name", help: "A user.")])

  /// Every command under the root, with the words that name it.
  static func commands(
    under configuration: CommandConfiguration = LifelogCommand.configuration,
    path: [String] = []
  ) -> [(path: [String], command: any Command.Type)] {
    configuration.subcommands.flatMap { sub in
      let subPath = path + [sub.configuration.commandName]
      return [(subPath, sub)] + commands(under: sub.configuration, path: subPath)
    }
  }

  /// The words of an example after `lifelog` and the command's path, up to a redirection or pipe.
  static func words(of example: String, path: [String]) -> [String]? {
    var words = ShellWords.splitLeniently(example)
    guard words.first == "lifelog" else { return nil }
    words.removeFirst()
    guard Array(words.prefix(path.count)) == path else { return nil }
    return Array(
      words.dropFirst(path.count).prefix { ![">", "<", "|", "&&", ";", "2>"].contains($0) })
  }

  @Test func aMisspeltArgumentOrOptionIsReportedAndADeclaredOneIsNot() throws {
    let recorder = UndeclaredNames()
    let parsed = try ParsedArguments(["ana", "--user", "bo"], configuration: Self.configuration)
    try UndeclaredNames.$current.withValue(recorder) {
      let positionals = try parsed.checkedPositionals(for: Self.configuration)
      #expect(positionals["name"] == ["ana"])
      #expect(parsed.value("--user") == "bo")
      #expect(positionals["nmae"] == nil)
      #expect(parsed.value("--usr") == nil)
      #expect(!parsed.flag("--verbos"))
      #expect(parsed.all("--tags").isEmpty)
    }
    #expect(recorder.all == ["nmae", "--usr", "--verbos", "--tags"])
  }

  @Test func everyCommandReadsOnlyTheNamesItDeclaresWhenItsExamplesAreParsed() throws {
    let folder = TemporaryDirectory(prefix: "lifelog-declared")
    let context = Context(
      environment: ["LIFELOG_DB": folder.file("log.db"), "HOME": folder.path],
      output: CapturedOutput(), errors: CapturedOutput(), outputIsTerminal: false,
      now: 1_780_000_000, zone: SystemTimeZone(identifier: "UTC"), zoneName: "UTC")
    let recorder = UndeclaredNames()
    var parsedExamples = 0
    UndeclaredNames.$current.withValue(recorder) {
      for (path, command) in Self.commands() {
        let examples = command.configuration.examples.compactMap { Self.words(of: $0, path: path) }
        for words in examples + [[]] {
          guard let parsed = try? ParsedArguments(words, configuration: command.configuration)
          else { continue }
          parsedExamples += 1
          // Only parsing: a command that cannot be made from its example (a file it names is
          // missing) has still looked its names up by then.
          _ = try? command.init(parsing: parsed, in: context)
        }
      }
    }
    #expect(recorder.all == [], "names looked up but not declared")
    #expect(parsedExamples > 60, "\(parsedExamples) command lines parsed")
  }
}
