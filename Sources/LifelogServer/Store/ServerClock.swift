import LifelogCore

/// The clock both stores stamp records with (users, batches, snapshots, key envelopes, their
/// migrations): one definition, so the SQLite and PostgreSQL stores cannot disagree on what
/// "received" means.
enum ServerClock {
  /// The current time in Unix milliseconds (the system's wall clock, as the local log's stamps).
  static func milliseconds() -> Int64 { LogStore.systemMilliseconds() }
}
