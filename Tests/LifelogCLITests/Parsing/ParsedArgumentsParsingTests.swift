import Testing

@testable import LifelogCLI

/// How ``ParsedArguments`` splits a command line against a configuration: the parse itself, not
/// the typed accessors built on it.
@Suite struct ParsedArgumentsParsingTests {
  static let configuration = CommandConfiguration(
    commandName: "sample", abstract: "A command for the parser's tests.",
    arguments: [activity, note], options: [at, tag, quiet], usesDatabase: false)
  static let activity = ArgumentSpec("activity", "What.")
  static let note = ArgumentSpec("note", "Why.", .optional)
  static let at = OptionSpec(["--at"], value: "time", help: "When.")
  static let tag = OptionSpec(["--tag", "-t"], value: "tag", help: "A tag.", repeatable: true)
  static let quiet = OptionSpec(["--quiet", "-q"], help: "Say less.")

  func parse(_ arguments: String...) throws(UsageError) -> ParsedArguments {
    try ParsedArguments(arguments, configuration: Self.configuration)
  }

  func usageError(_ arguments: String...) -> String? {
    do {
      _ = try ParsedArguments(arguments, configuration: Self.configuration)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func aValueMayFollowItsOptionOrBeJoinedToItWithAnEqualsSign() throws {
    #expect(try parse("--at", "08:15").value(Self.at) == "08:15")
    #expect(try parse("--at=08:15").value(Self.at) == "08:15")
    #expect(try parse("--at=").value(Self.at) == "")
    #expect(try parse("--at", "a=b").value(Self.at) == "a=b")
  }

  @Test func aShortNameIsTheSameOptionAsItsLongName() throws {
    let parsed = try parse("-q", "-t", "home", "--tag", "work")
    #expect(parsed.flag(Self.quiet))
    #expect(parsed.all(Self.tag) == ["home", "work"])
  }

  @Test func positionalsKeepTheirOrderAroundOptions() throws {
    let parsed = try parse("lunch", "--at", "12:00", "soup", "-q")
    #expect(parsed.positionals == ["lunch", "soup"])
    let positionals = try parsed.checkedPositionals(for: Self.configuration)
    #expect(positionals.required(Self.activity) == "lunch")
    #expect(positionals.value(Self.note) == "soup")
  }

  @Test func aDoubleDashEndsTheOptionsSoANoteMayStartWithADash() throws {
    let parsed = try parse("snack", "--", "--quiet", "-q")
    #expect(parsed.positionals == ["snack", "--quiet", "-q"])
    #expect(!parsed.flag(Self.quiet))
  }

  @Test func aNegativeNumberOrALoneDashIsAValueNotAnOption() throws {
    #expect(try parse("--at", "-2h").value(Self.at) == "-2h")
    #expect(try parse("-5", "-").positionals == ["-5", "-"])
  }

  @Test func anUnknownOptionIsRefusedWithTheNearestKnownName() {
    #expect(usageError("--qiuet") == "Unknown option '--qiuet'; did you mean '--quiet'?")
    #expect(usageError("-x") == "Unknown option '-x'")
  }

  @Test func anOptionWithoutItsValueOrAFlagWithOneIsRefused() {
    #expect(usageError("lunch", "--at") == "Missing value for '--at <time>'")
    #expect(usageError("--quiet=yes") == "Option '--quiet' takes no value")
  }

  @Test func anOptionGivenTwiceIsRefusedUnlessItRepeats() throws {
    #expect(usageError("--at", "1", "--at", "2") == "Option '--at' was given more than once")
    #expect(try parse("--tag", "a", "--tag=b", "-t", "c").all(Self.tag) == ["a", "b", "c"])
  }

  @Test func missingOrExtraPositionalsAreRefusedByName() throws {
    #expect(throws: UsageError("Missing expected argument '<activity>'")) {
      try parse("-q").checkedPositionals(for: Self.configuration)
    }
    #expect(throws: UsageError("Unexpected argument 'extra'")) {
      try parse("lunch", "soup", "extra").checkedPositionals(for: Self.configuration)
    }
  }

  @Test func helpIsAcceptedByEveryCommandInBothSpellings() throws {
    #expect(try parse("-h").wantsHelp)
    #expect(try parse("lunch", "--help").wantsHelp)
    #expect(try !parse("lunch").wantsHelp)
  }
}
