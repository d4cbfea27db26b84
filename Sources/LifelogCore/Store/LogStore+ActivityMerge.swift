/// Joining two activities into one (`lifelog activity merge`).
extension LogStore {
  /// Moves every entry of `fromName` (deleted ones too) to `intoName`, then archives `fromName`.
  ///
  /// Each moved entry's `activity` field is written and stamped like an edit, so the move syncs;
  /// the old activity stays (archived, with no entries), so another machine's entries of it that
  /// arrive later are not lost and `activity unarchive` can still reach it.
  ///
  /// - Returns: both activities as they now are, and how many entries moved.
  public func mergeActivity(
    _ fromName: String, into intoName: String
  ) throws -> (from: Activity, into: Activity, moved: Int) {
    try write {
      let from = try requireActivity(named: fromName)
      let into = try requireActivity(named: intoName)
      guard from.id != into.id else {
        throw InputError("'\(from.name)' and '\(into.name)' are the same activity; name two")
      }
      guard !into.archived else {
        throw InputError(
          "Activity '\(into.name)' is archived; run 'lifelog activity unarchive \(into.name)' first"
        )
      }
      var ids: [String] = []
      for deleted in [false, true] {
        try forEachEntry(EntryQuery(activityID: from.id, deleted: deleted)) { ids.append($0.id) }
      }
      var move = EntryChanges()
      move.activityID = into.id
      for id in ids { _ = try update(id: id, with: move) }
      let archived = from.archived ? from : try updateActivity(named: from.name, archived: true)
      return (archived, into, ids.count)
    }
  }
}
