import LifelogCore
import LifelogProtocol

/// `lifelog check` on a `lifelog serve` remote: every page of changes from the start, for every
/// device (this one included), then the newest snapshot.
///
/// A server lists no folder, so this reads what a new machine would read, batch by batch. Only
/// where the server says it compacted batches (`needsSnapshot`) is a snapshot merged to go on past
/// them, as a joining machine would; when none opens, that is a finding.
extension HTTPRemote: InventoriedRemote {
  /// Snapshots looked at in one check, at most: a server offering new names for ever stops here.
  static let checkedSnapshotLimit = 10_000

  func inventory(into check: RemoteCheck, deadline: Deadline) throws {
    // No device has this id, so no snapshot is left out as the reader's own.
    let nobody = UUIDText.random()
    var cursor = ""
    var seen = Set<String>()
    while true {
      try deadline.check()
      guard let page = try changesPage(after: cursor, check: check) else { return }
      for item in page.items {
        if let refusal = item.refusal {
          check.problem("server", "the server lists a batch of \(item.device): \(refusal)")
          continue
        }
        check.examine(
          .batch(device: item.device, seq: item.seq), place: "batch \(item.device)/\(item.seq)",
          bytes: item.bytes)
      }
      if page.needsSnapshot {
        // Compacted batches ahead: a snapshot that covers them lets the pages go on past them.
        cursor = page.cursor
        guard
          let next = try mergeSnapshot(
            after: cursor, excluding: nobody, seen: &seen, into: check, deadline: deadline)
        else {
          check.problem(
            "compacted",
            "the server compacted batches after cursor \(CheckText.quoted(cursor)) and holds no snapshot that "
              + "opens and covers them, so a machine joining now cannot get them")
          return
        }
        cursor = next
        continue
      }
      if !page.more { break }
      if page.cursor == cursor {
        check.problem(
          "server",
          "the server's pages of changes stop moving forward at cursor \(CheckText.quoted(cursor))")
        return
      }
      cursor = page.cursor
    }
    // The newest snapshot too, which a joining machine merges first, when none was needed on the way.
    if let newest = try latestSnapshot(after: nil, excluding: nobody, check: check),
      !seen.contains(newest.name)
    {
      _ = try fetchSnapshot(newest.name, into: check)
    }
  }

  /// Examines the snapshots offered beyond `cursor` until one opens.
  ///
  /// - Returns: the cursor after it, or nil when none opens.
  private func mergeSnapshot(
    after cursor: String, excluding nobody: String, seen: inout Set<String>,
    into check: RemoteCheck,
    deadline: Deadline
  ) throws -> String? {
    while seen.count < HTTPRemote.checkedSnapshotLimit,
      let offer = try latestSnapshot(after: cursor, excluding: nobody, check: check),
      seen.insert(offer.name).inserted
    {
      try deadline.check()
      if try fetchSnapshot(offer.name, into: check) { return offer.cursor }
    }
    return nil
  }

  /// Reads one snapshot and examines it; returns whether it opened.
  private func fetchSnapshot(_ name: String, into check: RemoteCheck) throws -> Bool {
    let response = try transport.send("GET", APIPath.snapshot(name))
    guard response.status == 200 else {
      check.unreadable(
        .snapshot(name), place: "snapshot \(name)",
        reason:
          "the server answered \(response.status): \(CheckText.shown(transport.serverMessage(response.body)))"
      )
      return false
    }
    return check.examine(.snapshot(name), place: "snapshot \(name)", bytes: response.body)
  }

  /// The newest snapshot beyond `cursor` (the newest of all without one) and the cursor after
  /// merging it; nil when there is none.
  private func latestSnapshot(
    after cursor: String?, excluding nobody: String, check: RemoteCheck
  ) throws -> (name: String, cursor: String)? {
    let after = cursor.map { "\(APIQuery.after)=\($0)&" } ?? ""
    let response = try transport.send(
      "GET", APIPath.latestSnapshot + "?\(after)\(APIQuery.exclude)=\(nobody)&\(APIQuery.meta)=1")
    if response.status == 404 { return nil }
    guard response.status == 200, let json = try? JSONValue.parse(response.body) else {
      check.problem(
        "server",
        "the server's description of its newest snapshot cannot be read (\(response.status))")
      return nil
    }
    guard let name = json["name"]?.string, APIPath.isName(name),
      let next = json["cursor"]?.string,
      CursorToken.isValid(next)
    else {
      check.problem(
        "server", "the server describes its newest snapshot with a malformed name or cursor")
      return nil
    }
    return (name, next)
  }

  /// One page of `GET /v1/changes` for every device, with its index checked against its bytes;
  /// nil (and a finding) when the page cannot be read.
  private func changesPage(after cursor: String, check: RemoteCheck) throws -> ChangesBody? {
    let response = try transport.send(
      "GET", APIPath.changes + "?\(APIQuery.after)=\(cursor)&\(APIQuery.limit)=1000")
    guard response.status == 200 else {
      check.problem(
        "server",
        "the server answered \(response.status) when asked for changes after cursor \(CheckText.quoted(cursor)): "
          + CheckText.shown(transport.serverMessage(response.body)))
      return nil
    }
    do {
      return try ChangesBody(parsing: response.body)
    } catch {
      let wrong =
        switch error {
        case .unreadable: "cannot be read"
        case .badItem: "lists a batch it does not hold"
        }
      check.problem(
        "server", "the server's page of changes after cursor \(CheckText.quoted(cursor)) \(wrong)")
      return nil
    }
  }
}
