/// Whether `lifelog remind` speaks now, and about which gap (pure: the command gathers the facts).
///
/// It speaks once per gap: a gap is named by the last meal and the instant the next one is due,
/// so logging a meal starts a new gap (and silences the old one), and a reminder already given
/// for this gap is not given again. It stays silent before `remindBeforeMinutes` ahead of the due
/// time, in quiet hours (read on the reader's clock now), and while a logged sleep is running.
public struct Reminder: Hashable, Sendable {
  public enum Outcome: Hashable, Sendable {
    /// Remind about this gap (``Reminder/gapKey``), then record it.
    case remind(gap: String)
    /// Say nothing, for this reason (shown by `remind --verbose`-like tests and logs).
    case silent(String)
  }

  /// A sleep with no duration counts as running for this long after it began, unless a meal was
  /// logged since (someone who logs "sleep" on going to bed does not log waking up).
  public static let openSleepSeconds: Int64 = 12 * 3600

  public let outcome: Outcome

  /// - Parameters:
  ///   - lastMealID: the id of the meal ``MealDue/lastMeal`` is.
  ///   - sleep: the latest sleep that began at or before now.
  ///   - remindedGap: the gap this machine last reminded about.
  public init(
    due: MealDue, lastMealID: String?, quiet: QuietHours, beforeMinutes: Int, sleep: LoggedTime?,
    sleepSeconds: Int?, remindedGap: String?
  ) {
    guard let dueAt = due.dueAt, let lastMealID else {
      outcome = .silent("no meal logged yet")
      return
    }
    let now = due.now.instant
    let lead = Int64(min(max(beforeMinutes, 0), 180)) * 60
    guard now >= dueAt - lead else {
      outcome = .silent("not due yet")
      return
    }
    if quiet.contains(due.now) {
      outcome = .silent("quiet hours")
      return
    }
    if let sleep,
      Reminder.isRunning(sleep: sleep, seconds: sleepSeconds, now: now, lastMeal: due.lastMeal)
    {
      outcome = .silent("asleep")
      return
    }
    let gap = Reminder.gapKey(lastMealID: lastMealID, dueAt: dueAt)
    outcome = gap == remindedGap ? .silent("already reminded") : .remind(gap: gap)
  }

  /// `<last meal id>@<due instant>`.
  public static func gapKey(lastMealID: String, dueAt: Int64) -> String { "\(lastMealID)@\(dueAt)" }

  public static func isRunning(
    sleep: LoggedTime, seconds: Int?, now: Int64, lastMeal: LoggedTime?
  ) -> Bool {
    guard sleep.instant <= now else { return false }
    if let seconds { return now < sleep.instant + Int64(seconds) }
    if let lastMeal, lastMeal.instant >= sleep.instant { return false }
    return now - sleep.instant < openSleepSeconds
  }
}

extension LogStore {
  /// Records that this machine reminded about `gap`, unless it already had: true when this call
  /// claimed it.
  ///
  /// One write transaction, so two `remind` runs at the same moment claim it once.
  public func claimReminder(gap: String, at instant: Int64) throws -> Bool {
    try write {
      let current: String? = try database.cachedStatement(sql: "SELECT gap FROM local_remind").first
      { $0[0] }
      guard current != gap else { return false }
      try database.execute(
        sql: """
          INSERT INTO local_remind (singleton, gap, reminded_at) VALUES (1, ?, ?)
          ON CONFLICT (singleton) DO UPDATE SET gap = excluded.gap, reminded_at = excluded.reminded_at
          """, arguments: [gap, instant])
      return true
    }
  }

  /// The gap this machine last reminded about.
  public func remindedGap() throws -> String? {
    try read { try database.cachedStatement(sql: "SELECT gap FROM local_remind").first { $0[0] } }
  }
}
