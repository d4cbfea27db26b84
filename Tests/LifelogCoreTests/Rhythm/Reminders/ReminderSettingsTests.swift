import LifelogCore
import Testing

/// ``ReminderSettings``: `remind`'s two settings read from the values in force, each falling back
/// to its default when missing or unreadable.
@Suite struct ReminderSettingsTests {
  @Test func setValuesAreReadInTheirCanonicalForm() throws {
    let settings = ReminderSettings(
      values: [.remindQuietHours: "23:30-06:15", .remindBeforeMinutes: "15"])
    #expect(settings.quiet == (try QuietHours(parsing: "23:30-06:15")))
    #expect(settings.beforeMinutes == 15)
  }

  @Test func offTurnsTheQuietHoursOff() {
    #expect(ReminderSettings(values: [.remindQuietHours: "off"]).quiet == .off)
  }

  @Test func missingValuesTakeTheDefaults() {
    let settings = ReminderSettings(values: [:])
    #expect(settings.quiet == QuietHours.defaultHours)
    #expect(settings.beforeMinutes == 0)
    #expect(
      settings
        == ReminderSettings(
          values: [
            .remindQuietHours: Setting.remindQuietHours.defaultValue,
            .remindBeforeMinutes: Setting.remindBeforeMinutes.defaultValue,
          ]))
  }

  @Test(arguments: ["25:00-07:00", "22:00", "banana"])
  func unreadableQuietHoursTakeTheDefaultNotOff(_ text: String) {
    #expect(ReminderSettings(values: [.remindQuietHours: text]).quiet == QuietHours.defaultHours)
  }

  @Test(arguments: ["-5", "181", "99999999999999999999", "15.5", "ten"])
  func unreadableLeadMinutesTakeTheDefault(_ text: String) {
    #expect(ReminderSettings(values: [.remindBeforeMinutes: text]).beforeMinutes == 0)
  }
}
