import LifelogCore

/// The language a report or reminder is written in: `--lang`, else the `language` setting,
/// else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English.
///
/// Only the text for people changes; JSON, CSV and `--short` are the same in every language.
enum LanguageChoice {
  static let option = OptionSpec(
    ["--lang"], value: "language", help: "Write it in this language: en or pl.",
    default: "the language setting, else the locale",
    completes: .choices(Language.allCases.map(\.rawValue)))

  /// `--lang` as given, or nil.
  ///
  /// - Throws: ``UsageError`` (exit 64) naming the languages there are.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Language? {
    guard let text = arguments.value(option) else { return nil }
    do { return try Language(named: text) } catch { throw UsageError(error.message) }
  }

  /// The language in force for `flag` (nil when not given) and the `language` setting's value.
  static func resolve(_ flag: Language?, setting: String?, in context: Context) -> Language {
    let language: Language
    if let flag {
      language = flag
    } else if let setting, let named = Language(rawValue: setting) {
      language = named
    } else {
      language = Language.from(environment: context.environment)
    }
    // A catalog that cannot be read leaves the text English: say so, once, on stderr.
    if let problem = language.catalogProblem { context.errors.write("Note: \(problem)\n") }
    return language
  }
}
