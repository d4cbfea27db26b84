/// Short ids: the leading hex digits of an entry id, as people type them.
extension LogStore {
  /// The fewest digits of a prefix that lifelog accepts.
  public static let minimumPrefixLength = 4

  /// Finds the one entry whose id starts with `prefix` (dashes and case ignored).
  ///
  /// - Throws: ``InputError`` when the prefix is malformed, matches nothing, or matches several
  ///   entries (the message lists them so the person can type more digits).
  public func resolveEntryID(_ prefix: String) throws -> String {
    let digits = prefix.lowercased().filter { $0 != "-" }
    guard digits.count >= LogStore.minimumPrefixLength,
      let stored = StoredEntryID.range(ofPrefix: digits)
    else {
      throw InputError(
        "'\(prefix)' is not an entry id; give at least \(LogStore.minimumPrefixLength) hex digits "
          + "of an id shown by 'lifelog list', such as '1a2b3c4d'")
    }
    var dashed = ""
    for (offset, character) in digits.enumerated() {
      if [8, 12, 16, 20].contains(offset) { dashed.append("-") }
      dashed.append(character)
    }
    // Ids stored as 16 bytes are found by their byte range; an id kept as text (one not in UUID
    // form, from sync) by its text range: text ids of hex digits and dashes sort below "g".
    let matches: [String] = try read {
      try database.cachedStatement(
        sql: """
          SELECT \(StoredEntryID.text(of: "id")) FROM entry WHERE id >= ? AND id < ?
          UNION ALL SELECT id FROM entry WHERE id >= ? AND id < ?
          ORDER BY 1 LIMIT 6
          """
      )
      .map([stored.from, stored.below, dashed, dashed + "g"]) { $0[0] }
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
