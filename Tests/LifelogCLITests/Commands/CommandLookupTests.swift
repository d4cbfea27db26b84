import Testing

@testable import LifelogCLI

/// `lifelog NAME` finds its command by name alone: every command help lists is found under its
/// own name, and nothing else is.
@Suite struct CommandLookupTests {
  @Test func everyListedCommandIsFoundUnderItsOwnName() throws {
    for listed in LifelogCommand.configuration.subcommands {
      let name = listed.configuration.commandName
      let found = try #require(LifelogCommand.command(named: name), "\(name)")
      #expect(ObjectIdentifier(found) == ObjectIdentifier(listed), "\(name)")
    }
  }

  @Test(arguments: ["", "lsit", "List", "--help", "meals", "user"])
  func aNameNoCommandHasFindsNothing(name: String) {
    #expect(LifelogCommand.command(named: name) == nil)
  }

  @Test func anUnknownCommandIsStillRefusedWithTheNearestName() {
    let fixture = CLIFixture()
    let result = fixture.run("lsit")
    #expect(result.exitCode == 64)
    #expect(result.stderr.contains("Unknown command 'lsit'; did you mean 'list'?"))
  }
}
