/// Words as a person would type them at a POSIX shell, for hints such as
/// `lifelog add "green tea"`.
enum ShellQuote {
  /// `word` unquoted when the shell takes it as is, else in double quotes when that is safe, else
  /// in single quotes (each `'` written `'\''`).
  static func word(_ word: String) -> String {
    let plain = word.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || ("0"..."9").contains($0)
        || "-_.,:/@+=%".unicodeScalars.contains($0)
    }
    if plain && !word.isEmpty { return word }
    if !word.contains(where: { "\"$`\\!".contains($0) }) { return "\"" + word + "\"" }
    return "'" + word.replacing("'", with: "'\\''") + "'"
  }
}
