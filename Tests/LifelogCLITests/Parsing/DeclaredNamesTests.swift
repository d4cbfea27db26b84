import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogCLI

/// A command reads only the arguments and options its configuration lists.
///
/// Lookups take ``ArgumentSpec`` and ``OptionSpec`` values, not strings, so a misspelt name does
/// not compile (`arguments.value(Self.usr)` names no such spec). What still compiles is a spec the
/// configuration leaves out, or one borrowed from another command: that is reported as a
/// programmer error (``UndeclaredNames``) instead of reading as absent, and every command's
/// examples parse without one.
@Suite struct DeclaredNamesTests {
  static let name = ArgumentSpec("name", "A name.")
  static let user = OptionSpec(["--user"], value: "name", help: "A user.")
  static let configuration = CommandConfiguration(
    commandName: "demo", abstract: "A demo.", arguments: [name], options: [user])

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

  @Test func aSpecTheConfigurationDoesNotListIsReportedAndAListedOneIsNot() throws {
    let recorder = UndeclaredNames()
    let parsed = try ParsedArguments(["ana", "--user", "bo"], configuration: Self.configuration)
    let unlistedArgument = ArgumentSpec("nickname", "Declared, but left out of the list.")
    let unlistedOption = OptionSpec(["--group"], value: "name", help: "Likewise.")
    try UndeclaredNames.$current.withValue(recorder) {
      let positionals = try parsed.checkedPositionals(for: Self.configuration)
      #expect(positionals.required(Self.name) == "ana")
      #expect(parsed.value(Self.user) == "bo")
      #expect(positionals[unlistedArgument].isEmpty)
      #expect(parsed.value(unlistedOption) == nil)
      // Another command's options.
      #expect(!parsed.flag(LifelogCommand.List.deleted))
      #expect(parsed.all(LifelogCommand.Add.fields.tag).isEmpty)
      #expect(try parsed.choice(TextOrJSON.option) == nil)
    }
    #expect(recorder.all == ["nickname", "--group", "--deleted", "--tag", "--format"])
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
