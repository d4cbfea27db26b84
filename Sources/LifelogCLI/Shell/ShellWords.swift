/// Splits a line of `lifelog shell` into words the way a POSIX shell splits plain words.
///
/// Blanks separate words; `'…'` keeps everything inside as it is; `"…"` does too, except that a
/// backslash escapes `"`, `\`, `$` and `` ` ``; outside quotes a backslash keeps the next
/// character. Nothing is expanded (no variables, globs or `~`): a note is stored as typed.
enum ShellWords {
  /// The words of a whole line.
  ///
  /// - Throws: ``UsageError`` for a quote left open or a backslash at the very end.
  static func split(_ line: String) throws(UsageError) -> [String] {
    let scan = scan(line)
    if let quote = scan.openQuote {
      throw UsageError(
        "Unbalanced quote: the \(quote) opened in the line is never closed; close it")
    }
    if scan.danglingBackslash {
      throw UsageError("The line ends with a backslash; remove it or put the text in quotes")
    }
    return scan.words
  }

  /// The words of a partly typed line, as far as they go (an open quote runs to the end); for
  /// completion, which must make sense of whatever is there.
  static func splitLeniently(_ line: String) -> [String] { scan(line).words }

  /// The words found, and whether the line ended inside a quote or after a lone backslash.
  private static func scan(
    _ line: String
  ) -> (words: [String], openQuote: Character?, danglingBackslash: Bool) {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in line {
      if escaped {
        if quote == "\"", !"\"\\$`".contains(character) { word.append("\\") }
        word.append(character)
        escaped = false
      } else if character == "\\", quote != "'" {
        escaped = true
        inWord = true
      } else if let open = quote {
        if character == open { quote = nil } else { word.append(character) }
      } else if character == "'" || character == "\"" {
        quote = character
        inWord = true
      } else if character == " " || character == "\t" || character == "\n" || character == "\r" {
        if inWord { words.append(word) }
        word = ""
        inWord = false
      } else {
        word.append(character)
        inWord = true
      }
    }
    if inWord { words.append(word) }
    return (words, quote, escaped)
  }
}
