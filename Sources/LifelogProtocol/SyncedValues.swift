import LifelogCore

/// The ranges synced entry values must fall in (docs/sync-protocol.md §3, "Values out of range"),
/// checked where a row enters: when ``BatchCodec`` decodes a batch or snapshot, from any remote.
///
/// A value out of range does not make its file damaged: refusing the file would hold back every
/// later batch of its device for good, over one field. The field merges by its stamp like any
/// other, with the value taken as absent, so every machine that decodes the same bytes stores the
/// same row. The ranges are the ones local input is held to (`--duration`, `--quantity`, import),
/// so nothing a lifelog of this version writes is ever dropped.
///
/// Settings and targets are text with their own parsers; they are stored as received and checked
/// on every read instead (``Setting/inForce(_:)``, ``Target/init(parsing:)``), where a command can
/// warn that the default is used.
enum SyncedValues {
  /// `change` with every entry value out of range replaced by its absent form: `null` for a
  /// duration or quantity, and tags that break the tag rules left out.
  static func checked(_ change: RowChange) -> RowChange {
    guard change.entity == .entry, change.values.count == SyncedEntity.entry.fields.count else {
      return change
    }
    var checked = change
    for (index, field) in SyncedEntity.entry.fields.enumerated() {
      switch (field, change.values[index]) {
      case ("duration", .integer(let seconds)) where !EntryFields.isValidDuration(seconds):
        checked.values[index] = .null
      case ("quantity", .real(let amount)) where !EntryFields.isValidQuantity(amount):
        checked.values[index] = .null
      case ("tags", .tags(let list)) where !list.allSatisfy(EntryFields.isValidTag):
        checked.values[index] = .tags(list.filter(EntryFields.isValidTag))
      default: break
      }
    }
    return checked
  }
}
