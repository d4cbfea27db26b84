import LifelogTestSupport
import Testing

@testable import LifelogCLI

/// ``ParsedArguments`` on its own: the typed accessors read choices and defaults from the
/// command's ``OptionSpec``s, so what help shows is what parsing accepts.
@Suite struct ParsedArgumentsTests {
  enum Period: String, CaseIterable { case day, week }

  static let format = ChoiceOption.format(OutputFormat.allCases)
  static let timeout = OptionSpec(["--timeout"], value: "seconds", help: "How long.", default: "60")
  static let by = ChoiceOption(
    ["--by"], value: "period", help: "Per day or week.", default: "a week unless told",
    choices: Period.allCases)
  static let note = OptionSpec(["--note"], value: "text", help: "Free text.")
  static let quiet = OptionSpec(["--quiet"], help: "A flag.")
  static let configuration = CommandConfiguration(
    commandName: "probe", abstract: "A command for these tests.",
    options: [format.spec, timeout, by.spec, note, quiet], usesDatabase: false)

  func parse(_ arguments: String...) throws -> ParsedArguments {
    try ParsedArguments(arguments, configuration: Self.configuration)
  }

  @Test(arguments: ["table", "TABLE", "Table", "--format=JSON", "csv"])
  func aChoiceIsMatchedWithoutRegardToCaseAndSpelledAsHelpShowsIt(_ given: String) throws {
    let arguments = given.hasPrefix("--") ? try parse(given) : try parse("--format", given)
    let choice = try arguments.choice(Self.format)
    #expect(choice?.rawValue == given.split(separator: "=").last?.lowercased())
  }

  @Test func aChoiceNotGivenIsItsDefaultAndADefaultThatIsNoChoiceIsNil() throws {
    let arguments = try parse()
    #expect(try arguments.choice(Self.format) == .table, "the first format, as help says")
    #expect(try arguments.choice(Self.by) == nil, "'a week unless told' describes, it is no value")
  }

  @Test func aValueThatIsNoChoiceIsAUsageErrorListingTheChoices() throws {
    let arguments = try parse("--format", "yaml")
    #expect(throws: UsageError("Unknown format 'yaml'; use one of: table, json, csv")) {
      try arguments.choice(Self.format)
    }
  }

  @Test func theChoicesAreWhatCompletionOffers() {
    #expect(Self.format.spec.completion == .choices(["table", "json", "csv"]))
    #expect(Self.by.spec.completion == .choices(["day", "week"]))
  }

  @Test func valueOrDefaultReadsTheDefaultHelpShows() throws {
    #expect(try parse().valueOrDefault(Self.timeout) == "60")
    #expect(try parse("--timeout", "5").valueOrDefault(Self.timeout) == "5")
    #expect(try parse().valueOrDefault(Self.note) == nil)
    let help = HelpFormatter.help(for: Self.configuration, path: ["probe"])
    #expect(help.contains("How long. (default: 60)"), "help shows the same default: \(help)")
    #expect(help.contains("Output: table, json or csv. (default: table)"), "\(help)")
  }

  @Test func optionsFlagsAndPositionalsAreSplitAsDeclared() throws {
    let arguments = try parse("one", "--quiet", "--note", "-x", "--", "--two")
    #expect(arguments.flag(Self.quiet))
    #expect(arguments.value(Self.note) == "-x")
    #expect(arguments.positionals == ["one", "--two"])
  }

  @Test func anUnknownOptionOrOneGivenTwiceIsAUsageError() {
    #expect(throws: UsageError.self) { try parse("--formt", "json") }
    #expect(throws: UsageError("Option '--note' was given more than once")) {
      try parse("--note", "a", "--note", "b")
    }
    #expect(throws: UsageError("Option '--quiet' takes no value")) { try parse("--quiet=yes") }
  }
}

/// The commands read `--format` through ``ParsedArguments/choice(_:)``: any case help's choices
/// come in is accepted, by every command that offers them.
@Suite struct FormatChoiceTests {
  @Test(arguments: [
    ["remote", "list", "--format", "TABLE"], ["remote", "list", "--format", "Json"],
    ["settings", "--format", "TABLE"], ["status", "--format", "JSON"],
    ["activity", "list", "--format", "CSV"], ["list", "--format", "Table"],
    ["export", "--format", "JSONL"],
  ])
  func aFormatInCapitalsIsTheFormatHelpOffers(_ arguments: [String]) {
    let fixture = CLIFixture()
    let shouting = fixture.cli.run(arguments)
    let lowered = Array(arguments.dropLast()) + [arguments[arguments.count - 1].lowercased()]
    let lower = fixture.cli.run(lowered)
    #expect(shouting.exitCode == 0, "\(shouting)")
    #expect(shouting.stdout == lower.stdout && shouting.stderr == lower.stderr, "\(shouting)")
  }

  @Test func anUnknownFormatIsAUsageErrorNamingTheChoices() {
    expectFailure(
      CLIFixture(), ["remote", "list", "--format", "yaml"], code: 64,
      saying: "Unknown format 'yaml'; use one of: table, json")
  }
}
