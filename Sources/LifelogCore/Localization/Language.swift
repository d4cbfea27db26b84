/// A language lifelog's reports and reminders can be written in.
///
/// The strings in the code are English; every other language is a gettext catalog in `po/`
/// (docs/architecture.md, "Languages"), compiled into ``EmbeddedCatalogs``.
public enum Language: String, CaseIterable, Sendable {
  case en, pl

  /// Reads `--lang` or the `language` setting: `en`, `pl`, or a locale name such as `pl_PL.UTF-8`.
  ///
  /// - Throws: ``InputError`` naming the languages there are.
  public init(named text: String) throws(InputError) {
    guard let language = Language(locale: text) else {
      let names = Language.allCases.map(\.rawValue).joined(separator: ", ")
      throw InputError("Unknown language '\(text)'; use one of: \(names)")
    }
    self = language
  }

  /// The language of a POSIX locale name (`pl_PL.UTF-8`, `pl`, `en_GB`), or nil.
  public init?(locale: String) {
    let name = locale.prefix { $0 != "_" && $0 != "." && $0 != "@" && $0 != "-" }.lowercased()
    guard let language = Language(rawValue: name) else { return nil }
    self = language
  }

  /// The language the environment asks for, as gettext reads it: the first of `LC_ALL`,
  /// `LC_MESSAGES` and `LANG` that is set and not empty; English when that names no language
  /// lifelog has (or `C`/`POSIX`).
  public static func from(environment: [String: String]) -> Language {
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = environment[name], !value.isEmpty { return Language(locale: value) ?? .en }
    }
    return .en
  }

  /// Whether paper in the environment's locale is US Letter (the Americas that use it), by
  /// `LC_ALL`, `LC_PAPER` or `LANG`; A4 otherwise.
  public static func usesLetterPaper(environment: [String: String]) -> Bool {
    for name in ["LC_ALL", "LC_PAPER", "LANG"] {
      guard let value = environment[name], !value.isEmpty else { continue }
      let territory = value.split(separator: "_").dropFirst().first?.prefix(2) ?? ""
      return ["US", "CA", "MX", "CL", "CO", "VE", "PH"].contains(String(territory))
    }
    return false
  }

  /// Why this language's catalog could not be read (its text is then English), or nil.
  public var catalogProblem: String? {
    switch self {
    case .en: return nil
    case .pl: return Translation.polishProblem
    }
  }

  /// The catalog that translates into this language.
  public var translation: Translation {
    switch self {
    case .en: return Translation.english
    case .pl: return Translation.polish
    }
  }
}
