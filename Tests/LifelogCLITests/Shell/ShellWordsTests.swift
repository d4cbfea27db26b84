import Testing

@testable import LifelogCLI

/// How a `lifelog shell` line becomes words: as a POSIX shell splits plain words, nothing expanded.
@Suite struct ShellWordsTests {
  @Test func blanksSeparateWordsAndRunsOfThemCountOnce() throws {
    #expect(try ShellWords.split("add  lunch\tsoup \n") == ["add", "lunch", "soup"])
    #expect(try ShellWords.split("   ") == [])
  }

  @Test func singleQuotesKeepEverythingInsideAsItIs() throws {
    #expect(
      try ShellWords.split(#"add tea 'green, "hot" \n'"#) == ["add", "tea", #"green, "hot" \n"#])
    #expect(try ShellWords.split("note ''") == ["note", ""])
  }

  @Test func doubleQuotesLetABackslashEscapeOnlyTheShellsSpecialCharacters() throws {
    #expect(try ShellWords.split(#"add "a \"b\" \$c \\ \n""#) == ["add", #"a "b" $c \ \n"#])
  }

  @Test func outsideQuotesABackslashKeepsTheNextCharacter() throws {
    #expect(
      try ShellWords.split(#"add lunch soup\ and\ bread \'x"#) == [
        "add", "lunch", "soup and bread", "'x",
      ])
  }

  @Test func quotedPartsJoinTheWordAroundThem() throws {
    #expect(try ShellWords.split(#"--note=" a b "'c d'e"#) == ["--note= a b c de"])
  }

  @Test func nothingIsExpanded() throws {
    #expect(try ShellWords.split("add $HOME ~ *.csv") == ["add", "$HOME", "~", "*.csv"])
  }

  @Test func anOpenQuoteOrATrailingBackslashIsAnError() {
    #expect(throws: UsageError.self) { try ShellWords.split("add 'soup") }
    #expect(throws: UsageError.self) { try ShellWords.split(#"add "soup"#) }
    #expect(throws: UsageError.self) { try ShellWords.split(#"add soup\"#) }
  }

  @Test func aPartlyTypedLineSplitsAsFarAsItGoesForCompletion() {
    #expect(ShellWords.splitLeniently("add 'green te") == ["add", "green te"])
    #expect(ShellWords.splitLeniently("add ") == ["add"])
  }
}
