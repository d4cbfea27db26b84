/// Settings: stored values, with defaults for those never set.
extension LogStore {
  /// The value in force for `setting`.
  public func value(of setting: Setting) throws -> String {
    try read {
      try database.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?")
        .first([setting.rawValue]) { $0[0] } ?? setting.defaultValue
    }
  }

  /// Every setting with its value and whether it was set or is the default.
  public func allSettings() throws -> [(setting: Setting, value: String, isDefault: Bool)] {
    let stored: [String: String] = try read {
      var values: [String: String] = [:]
      try database.cachedStatement(sql: "SELECT key, value FROM setting").forEachRow { values[$0[0]] = $0[1] }
      return values
    }
    return Setting.allCases.map { setting in
      (setting, stored[setting.rawValue] ?? setting.defaultValue, stored[setting.rawValue] == nil)
    }
  }

  /// Checks and stores a value; returns it in canonical form.
  @discardableResult
  public func set(_ setting: Setting, to text: String) throws -> String {
    let value = try setting.validated(text)
    try write {
      try database.execute(
        sql: """
          INSERT INTO setting (key, value, stamps) VALUES (?, ?, ?)
          ON CONFLICT (key) DO UPDATE SET value = excluded.value, stamps = excluded.stamps
          """,
        arguments: [setting.rawValue, value, try nextStamp()])
      try markPending(.setting, id: setting.rawValue)
    }
    return value
  }
}
