import LifelogCore

/// `lifelog check` on a `lifelog serve` remote: every page of changes from the start, for every
/// device (this one included), and each snapshot a joining machine would merge on the way.
///
/// A server lists no folder, so this reads what a new machine would read. Batches that a snapshot
/// covers are skipped by the server once that snapshot is merged, so they are checked through the
/// snapshot; a snapshot that does not open is not merged, and the batches it covers are then read
/// one by one (and any that were compacted away are reported).
extension HTTPRemote: InventoriedRemote {
  /// Snapshots looked at in one check, at most: a server offering new names for ever stops here.
  static let checkedSnapshotLimit = 10_000
  /// The longest cursor taken from a server (one `_<device>_<seq>` per device a snapshot covers).
  static let cursorLimit = 100_000

  func inventory(into check: RemoteCheck, deadline: Deadline) throws {
    let nobody = UUIDText.random()  // no device has this id, so no snapshot is passed over as the reader's own
    var cursor = ""
    var seen = Set<String>()
    while true {
      try deadline.check()
      var advanced = false
      while seen.count < HTTPRemote.checkedSnapshotLimit,
        let offer = try latestSnapshot(after: cursor, excluding: nobody, check: check),
        seen.insert(offer.name).inserted
      {
        try deadline.check()
        let response = try transport.send("GET", "/v1/snapshots/\(offer.name)")
        guard response.status == 200 else {
          check.unreadable(
            .snapshot(offer.name), place: "snapshot \(offer.name)",
            reason:
              "the server answered \(response.status): \(HTTPTransport.errorMessage(response.body))"
          )
          continue
        }
        if check.examine(
          .snapshot(offer.name), place: "snapshot \(offer.name)", bytes: response.body)
        {
          cursor = offer.cursor
          advanced = true
        }
      }
      guard let page = try changesPage(after: cursor, check: check) else { return }
      for item in page.items {
        check.examine(
          .batch(device: item.device, seq: item.seq), place: "batch \(item.device)/\(item.seq)",
          bytes: item.bytes)
      }
      if page.needsSnapshot, page.items.isEmpty, !advanced {
        check.problem(
          "compacted",
          "the server compacted batches after cursor \(CheckText.quoted(cursor)) into a snapshot that cannot be read "
            + "here, so they cannot be checked, and a machine joining now cannot get them")
        return
      }
      if !page.more, !page.needsSnapshot { return }
      if page.cursor == cursor, !page.needsSnapshot {
        check.problem(
          "server",
          "the server's pages of changes stop moving forward at cursor \(CheckText.quoted(cursor))")
        return
      }
      cursor = page.cursor
    }
  }

  /// The newest snapshot beyond `cursor` and the cursor after merging it; nil when there is none.
  private func latestSnapshot(
    after cursor: String, excluding nobody: String, check: RemoteCheck
  ) throws -> (name: String, cursor: String)? {
    let response = try transport.send(
      "GET", "/v1/snapshots/latest?after=\(cursor)&exclude=\(nobody)&meta=1")
    if response.status == 404 { return nil }
    guard response.status == 200, let json = try? JSONValue.parse(response.body) else {
      check.problem(
        "server",
        "the server's description of its newest snapshot cannot be read (\(response.status))")
      return nil
    }
    guard let name = json["name"]?.string, SyncStore.isPathSafe(name),
      let next = json["cursor"]?.string,
      HTTPRemote.isCursor(next)
    else {
      check.problem(
        "server", "the server describes its newest snapshot with a malformed name or cursor")
      return nil
    }
    return (name, next)
  }

  struct CheckedPage {
    struct Item {
      var device: String
      var seq: Int
      var bytes: [UInt8]
    }
    var items: [Item] = []
    var cursor: String
    var more: Bool
    var needsSnapshot: Bool
  }

  /// One page of `GET /v1/changes` for every device, with its index checked against its bytes;
  /// nil (and a finding) when the page cannot be read.
  private func changesPage(after cursor: String, check: RemoteCheck) throws -> CheckedPage? {
    let response = try transport.send("GET", "/v1/changes?after=\(cursor)&limit=1000")
    guard response.status == 200 else {
      check.problem(
        "server",
        "the server answered \(response.status) when asked for changes after cursor \(CheckText.quoted(cursor)): "
          + CheckText.shown(HTTPTransport.errorMessage(response.body)))
      return nil
    }
    let body = response.body
    guard let newline = body.firstIndex(of: 0x0A),
      let index = try? JSONValue.parse(body[..<newline]),
      let next = index["cursor"]?.string, HTTPRemote.isCursor(next),
      case .array(let listed)? = index["batches"]
    else {
      check.problem(
        "server",
        "the server's page of changes after cursor \(CheckText.quoted(cursor)) cannot be read")
      return nil
    }
    var page = CheckedPage(
      cursor: next, more: index["more"]?.bool ?? false,
      needsSnapshot: index["needsSnapshot"]?.bool ?? false)
    var offset = newline + 1
    for entry in listed {
      guard let device = entry["device"]?.string, SyncStore.isPathSafe(device),
        let seq = entry["seq"]?.integer,
        seq >= 1, let size = entry["size"]?.integer, size >= 0, size <= Int64(body.count - offset)
      else {
        check.problem(
          "server",
          "the server's page of changes after cursor \(CheckText.quoted(cursor)) lists a batch it does not hold"
        )
        return nil
      }
      let end = offset + Int(size)
      page.items.append(
        CheckedPage.Item(device: device, seq: Int(seq), bytes: Array(body[offset..<end])))
      offset = end
    }
    return page
  }

  /// Whether `text` is a cursor as docs/http-api.md defines it: `[A-Za-z0-9_-]`, bounded.
  static func isCursor(_ text: String) -> Bool {
    text.utf8.count <= cursorLimit
      && text.utf8.allSatisfy {
        (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45
          || $0 == 95
      }
  }
}
