/// Settings: stored values, with defaults for those never set.
extension LogStore {
  /// The value in force for `setting`: the default when none is stored or the stored one is not
  /// valid (see ``ignoredSettings()``).
  public func value(of setting: Setting) throws -> String {
    let stored: String? = try read {
      try database.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?").first([
        setting.rawValue
      ]) { $0[0] }
    }
    return stored.flatMap(setting.inForce) ?? setting.defaultValue
  }

  /// Every setting with its value in force and whether that is the default (never set, or set by
  /// sync to a value that is not valid).
  public func allSettings() throws -> [(setting: Setting, value: String, isDefault: Bool)] {
    let stored = try storedSettings()
    return Setting.allCases.map { setting in
      guard let value = stored[setting.rawValue].flatMap(setting.inForce) else {
        return (setting, setting.defaultValue, true)
      }
      return (setting, value, false)
    }
  }

  /// The settings whose stored value is not valid, with that value.
  ///
  /// They came by sync (from a machine that did not check them) and the default is used instead.
  /// Commands warn about them.
  public func ignoredSettings() throws -> [(setting: Setting, stored: String)] {
    let stored = try storedSettings()
    return Setting.allCases.compactMap { setting in
      guard let text = stored[setting.rawValue], setting.inForce(text) == nil else { return nil }
      return (setting, text)
    }
  }

  private func storedSettings() throws -> [String: String] {
    try read {
      var values: [String: String] = [:]
      try database.cachedStatement(sql: "SELECT key, value FROM setting").forEachRow {
        values[$0[0]] = $0[1]
      }
      return values
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
