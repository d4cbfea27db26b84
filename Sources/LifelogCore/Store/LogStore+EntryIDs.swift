/// Short ids: the leading hex digits of an entry id, as people type them.
extension LogStore {
  /// The fewest digits of a prefix that lifelog accepts.
  public static let minimumPrefixLength = 4

  /// Finds the one entry whose id is `prefix`, or else the one whose id starts with it (dashes
  /// and case ignored).
  ///
  /// An id typed in full names that entry, whatever its form: the one way to name an id another
  /// program sent by sync that is not hex digits (`{…}`), or that a prefix cannot tell apart from
  /// ids alike but for case. But when the text is also the start of another entry's id (a synced
  /// id `1a2b3c4d`, the short id of an entry of this log), it is refused as ambiguous: a short id
  /// never silently picks one of two entries.
  ///
  /// - Throws: ``InputError`` when the prefix is malformed, matches nothing, or matches several
  ///   entries (the message lists them so the person can type more digits).
  public func resolveEntryID(_ prefix: String) throws -> String {
    let exact = try entry(id: prefix) != nil
    let digits = prefix.lowercased().filter { $0 != "-" }
    guard digits.count >= LogStore.minimumPrefixLength,
      let stored = StoredEntryID.range(ofPrefix: digits)
    else {
      if exact { return prefix }
      throw InputError(
        "'\(prefix)' is not an entry id; give at least \(LogStore.minimumPrefixLength) hex digits "
          + "of an id shown by 'lifelog list', such as '1a2b3c4d'")
    }
    // Ids stored as 16 bytes are found by their byte range; an id kept as text (one not in UUID
    // form, from sync: rare) among the text ids, which sort before every blob, dashes and case
    // ignored as for the others (`LIKE` ignores ASCII case; the digits hold no wildcard).
    var matches: [String] = try read {
      try database.cachedStatement(
        sql: """
          SELECT \(StoredEntryID.text(of: "id")) FROM entry WHERE id >= ? AND id < ?
          UNION ALL SELECT id FROM entry WHERE id < x'' AND replace(id, '-', '') LIKE ?
          ORDER BY 1 LIMIT 6
          """
      )
      .map([stored.from, stored.below, digits + "%"]) { $0[0] }
    }
    if exact {
      // Ids that are the same digits but for case and dashes are what typing in full tells apart.
      let others = matches.filter { $0.lowercased().filter { $0 != "-" } != digits }
      if others.isEmpty { return prefix }
      matches = [prefix] + others
    }
    switch matches.count {
    case 0:
      throw InputError(
        "No entry has an id starting with '\(prefix)'; run 'lifelog list' (or 'lifelog list --deleted') to see ids"
      )
    case 1:
      return matches[0]
    default:
      let described = try matches.prefix(5).map { id -> String in
        guard let entry = try entry(id: id) else { return UUIDText.short(id) }
        return
          "\(id.prefix(13)) (\(entry.activityName), \(entry.time.local.date) \(entry.time.local.timeDescription))"
      }
      let more = matches.count > 5 ? " and more" : ""
      throw InputError(
        "Id '\(prefix)' is ambiguous: it matches \(described.joined(separator: ", "))\(more); type more digits"
      )
    }
  }
}
