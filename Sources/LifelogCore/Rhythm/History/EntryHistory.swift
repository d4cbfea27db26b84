/// When an entry was created and last changed, from its field stamps (docs/design.md §3): the
/// oldest stamp is when it was written first, the newest when it was changed last, and each stamp
/// ends with the device that wrote it.
public struct EntryHistory: Sendable {
  public let created: String
  public let changed: String
  /// The fields whose stamp is the newest.
  public let changedFields: [String]
  /// This device's id and name, to tell its stamps from other machines'.
  public let deviceID: String
  public let deviceName: String
}

extension LogStore {
  /// The history of entry `id`; nil when there is no such entry.
  public func entryHistory(id: String) throws -> EntryHistory? {
    try read {
      guard let text = try currentStamps(.entry, id: id) else { return nil }
      let fields = SyncedEntity.entry.fields
      let stamps = FieldStamps(decoding: text, count: fields.count)
      let written = stamps.stamps.filter { $0 != Stamp.never }
      let newest = stamps.newest
      let name: String =
        try database.cachedStatement(sql: "SELECT name FROM sync_device").first { $0[0] } ?? ""
      return EntryHistory(
        created: written.min() ?? Stamp.never, changed: newest,
        changedFields: fields.indices.filter { stamps[$0] == newest }.map { fields[$0] },
        deviceID: try deviceID(), deviceName: name)
    }
  }
}
