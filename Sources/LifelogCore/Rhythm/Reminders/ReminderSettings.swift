/// The settings `lifelog remind` reads, from the values in force (``LogStore/allSettings()``
/// hands out each in canonical form, or its default).
///
/// A value that cannot be read (a synced value typed by a lifelog that did not check it) falls
/// back to the setting's default rather than stopping a reminder a timer runs unattended.
public struct ReminderSettings: Hashable, Sendable {
  /// When `remind` stays silent (`remindQuietHours`).
  public var quiet: QuietHours
  /// How many minutes before a meal is due `remind` speaks up (`remindBeforeMinutes`, 0–180).
  public var beforeMinutes: Int

  public init(quiet: QuietHours, beforeMinutes: Int) {
    self.quiet = quiet
    self.beforeMinutes = beforeMinutes
  }

  /// Reads both settings from `values` (a setting's value in force, keyed by setting); a missing
  /// or unreadable one takes its default.
  public init(values: [Setting: String]) {
    quiet = ReminderSettings.quiet(values[.remindQuietHours])
    beforeMinutes = ReminderSettings.beforeMinutes(values[.remindBeforeMinutes])
  }

  static func quiet(_ text: String?) -> QuietHours {
    let text = text ?? Setting.remindQuietHours.defaultValue
    return (try? QuietHours(parsing: Setting.remindQuietHours.validated(text)))
      ?? QuietHours.defaultHours
  }

  static func beforeMinutes(_ text: String?) -> Int {
    let canonical =
      text.flatMap(Setting.remindBeforeMinutes.inForce)
      ?? Setting.remindBeforeMinutes.defaultValue
    return Int(canonical) ?? 0
  }
}
