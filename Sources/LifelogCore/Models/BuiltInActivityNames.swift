import LifelogSQLite

/// The names a new log gives its built-in activities (``Activity/defaults``), by the language
/// of the locale it was created under.
///
/// Names are data: they are chosen once, when the log is created, and never translated later.
/// Every built-in keeps the id derived from its English name (``ActivityName/derivedID(for:)``)
/// in every language, so the built-ins of two machines are one activity each even when the logs
/// were created in different languages: an `obiad` logged on one shows as `lunch` on the other,
/// each machine keeping its own name (the built-ins' names carry no stamp, so neither wins).
public enum BuiltInActivityNames {
  /// English name → Polish name.
  public static let polish: [String: String] = [
    "breakfast": "śniadanie", "lunch": "obiad", "dinner": "kolacja", "snack": "przekąska",
    "walk": "spacer", "run": "bieg", "workout": "trening", "sleep": "sen",
  ]

  /// The names for the locale the environment names (`LC_ALL`, then `LC_MESSAGES`, then
  /// `LANG`, as POSIX orders them); nil for English and any language without its own names.
  public static func forLocale(_ environment: [String: String]) -> [String: String]? {
    let locale =
      ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }
      .first { !$0.isEmpty } ?? ""
    let language = locale.prefix { $0.isLetter }.lowercased()
    return language == "pl" ? polish : nil
  }
}

extension LogStore {
  /// Names the built-in activities of a log just created (``isNewLog``) by `names`.
  ///
  /// Only a built-in that still has its English name is renamed; ids stay as they are. Not
  /// stamped or queued: the names are this log's own.
  public func nameBuiltInActivities(_ names: [String: String]) throws {
    try write {
      let rename = try database.cachedStatement(
        sql: "UPDATE activity SET name = ?, name_key = ? WHERE id = ? AND name_key = ?")
      for (english, _) in Activity.defaults {
        guard let name = names[english] else { continue }
        try rename.execute([
          name, ActivityName.key(name), ActivityName.derivedID(for: english),
          ActivityName.key(english),
        ])
      }
    }
  }
}
