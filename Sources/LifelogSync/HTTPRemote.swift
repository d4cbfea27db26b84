import LifelogCore
import LifelogProtocol

/// A remote served by `lifelog serve` over HTTP(S) (docs/http-api.md): the same operations as a
/// folder remote, each one request.
///
/// The server gives every batch a cursor, so a pull is one range query; the cursor is the server's
/// opaque token.
public final class HTTPRemote: Remote {
  public var location: String { transport.location }
  public var envelope: BatchEnvelope = .plain
  let transport: HTTPTransport
  public var secrets: SecretScrubber { transport.scrubber }

  /// - Parameters:
  ///   - url: `http://host:port` or `https://host:port`.
  ///   - token: the bearer token `lifelog serve user add` printed.
  ///   - deadline: Unix milliseconds by which every request, retries included, must be done.
  public init(
    url: String, token: String?, caFile: String? = nil, deadline: Int64,
    now: @escaping @Sendable () -> Int64 = LogStore.systemMilliseconds
  ) {
    transport = HTTPTransport(
      baseURL: url, credentials: .bearer(token), caFile: caFile, deadline: deadline, now: now)
  }

  /// Whether `url` names an HTTP remote.
  public static func handles(_ url: String) -> Bool {
    url.hasPrefix("http://") || url.hasPrefix("https://")
  }

  public func manifest() throws(SyncError) -> RemoteManifest {
    let response = try transport.send("GET", APIPath.manifest)
    guard response.status == 200 else { throw unexpected(response, doing: "read the manifest") }
    guard let body = try? ManifestBody(parsing: response.body) else {
      throw .remoteUnavailable(
        location, reason: "the server's manifest is not one lifelog understands")
    }
    return RemoteManifest(
      remoteID: body.remoteID, format: body.format, minimumVersion: body.minimumVersion,
      encrypted: body.encrypted)
  }

  public func push(device: String, seq: Int, bytes: [UInt8]) throws(SyncError) {
    // The server refuses a seq out of its range; saying so here names the cause.
    guard WireRange.seq.contains(seq) else {
      throw .conflict("This log's batch \(seq) is past the protocol's seqs (\(WireRange.seq))")
    }
    let sealed = try envelope.seal(bytes, at: location, name: .batch(device: device, seq: seq))
    let response = try transport.send(
      "PUT", APIPath.batch(device: device, seq: seq), body: sealed, contentType: ContentType.batch)
    switch response.status {
    case 200, 201: return
    case 409:
      throw .conflict("The server already holds a different batch \(seq) of this device")
    default: throw unexpected(response, doing: "store batch \(seq)")
    }
  }

  /// Reads one page of `GET /v1/changes` and checks it: each device's seqs must follow on from what
  /// this log merged.
  ///
  /// A batch the page leaves out (seen by a later one of its device), one that does not open, or
  /// one `rules` hold holds back its own device only; the cursor (``HTTPPullState``) keeps where it
  /// is served again. Every number in the index is checked before it is used to cut the body.
  public func pull(
    after cursor: String, excluding device: String, rowLimit: Int, rules: PullRules
  ) throws(SyncError) -> PullPage {
    var state = HTTPPullState(parsing: cursor)
    state.startPass()
    let after = try checkedCursor(state)
    let response = try transport.send(
      "GET",
      APIPath.changes
        + "?\(APIQuery.after)=\(after)&\(APIQuery.exclude)=\(device)&\(APIQuery.rows)=\(rowLimit)")
    guard response.status == 200 else { throw unexpected(response, doing: "read changes") }
    let malformed = SyncError.remoteUnavailable(
      location, reason: "the server's page of changes is cut short or malformed")
    let served: ChangesBody
    do {
      served = try ChangesBody(parsing: response.body)
    } catch {
      switch error {
      case .unreadable:
        throw .remoteUnavailable(location, reason: "the server's page of changes cannot be read")
      case .badItem: throw malformed
      }
    }
    var page = PullPage(batches: [], cursor: cursor, more: served.more, skipped: [])
    if served.needsSnapshot {
      // The server stopped before batches it compacted into a snapshot this machine has not
      // merged (one that failed to open, or one written since): nothing is passed over, and the
      // next sync tries again.
      page.skipped.append(
        "changes after this point on \(location) are held in a snapshot not merged yet; the next sync tries again"
      )
    }
    var merged = rules.merged
    func hold(_ batch: HeldBatch, at mark: HTTPPullState.Mark) {
      page.held.append(batch)
      state.held[batch.device] = mark
    }
    for item in served.items {
      guard let rank = item.rank else { throw malformed }
      let (from, number) = (item.device, item.seq)
      let mark = HTTPPullState.Mark(token: after, rank: rank)
      // Not ours to merge, or waits behind.
      if from == device || state.held[from] != nil { continue }
      if let refusal = item.refusal {
        // A number out of range holds back this device only; the others go on.
        let next = (merged?[from] ?? 0) + 1
        page.skipped.append("a batch of \(from) from \(location): \(refusal)")
        hold(HeldBatch(device: from, seq: next, reason: .unreadable(refusal)), at: mark)
        continue
      }
      if let known = merged?[from] {
        if number <= known { continue }  // merged already (a page asked again, or another remote)
        if number > known + 1 {
          hold(HeldBatch(device: from, seq: known + 1, reason: .missing), at: state.mark(for: from))
          continue
        }
      }
      let batch: Batch
      do {
        batch = try envelope.open(item.bytes, name: .batch(device: from, seq: number))
      } catch {
        page.skipped.append("\(from)/\(number) from \(location): \(error)")
        hold(
          HeldBatch(device: from, seq: number, reason: .unreadable(String(describing: error))),
          at: mark)
        continue
      }
      if let reason = rules.hold(batch) {
        hold(HeldBatch(device: from, seq: number, reason: reason), at: mark)
        continue
      }
      page.batches.append(PulledBatch(name: "\(from)/\(number)", batch: batch))
      merged?[from] = number
      state.marks[from] = mark
    }
    state.next = served.cursor
    if !page.more { state.endPass() }
    page.cursor = state.encoded
    return page
  }

  public func putSnapshot(name: String, bytes: [UInt8]) throws(SyncError) {
    let response = try transport.send(
      "PUT", APIPath.snapshot(name),
      body: try envelope.seal(bytes, at: location, name: .snapshot(name)),
      contentType: ContentType.snapshot)
    guard response.status == 200 || response.status == 201 else {
      throw unexpected(response, doing: "store a snapshot")
    }
  }

  /// A snapshot that cannot be opened (damaged, or failing authentication on an encrypted remote)
  /// is passed over with a warning in `skipped`, never applied.
  ///
  /// That loses nothing: the pull then goes on from the same cursor, and the server stops a page
  /// before any batch it compacted that the cursor does not hold (`needsSnapshot`), so the cursor
  /// never passes what the snapshot held.
  public func snapshot(
    beyond cursor: String, excluding device: String, skipped: inout [String]
  ) throws(SyncError) -> PulledSnapshot? {
    var state = HTTPPullState(parsing: cursor)
    let after = try checkedCursor(state)
    let meta = try transport.send(
      "GET",
      APIPath.latestSnapshot
        + "?\(APIQuery.after)=\(after)&\(APIQuery.exclude)=\(device)&\(APIQuery.meta)=1")
    if meta.status == 404 { return nil }
    guard meta.status == 200 else { throw unexpected(meta, doing: "look for snapshots") }
    guard let description = try? SnapshotDescription(parsing: meta.body) else {
      throw .remoteUnavailable(location, reason: "the server's snapshot description cannot be read")
    }
    let name = description.name
    state.next = description.cursor
    state.base = description.cursor
    let response = try transport.send("GET", APIPath.snapshot(name))
    guard response.status == 200 else { throw unexpected(response, doing: "read snapshot \(name)") }
    let snapshot: Batch
    do {
      snapshot = try envelope.open(response.body, name: .snapshot(name))
    } catch {
      skipped.append("snapshot \(name) from \(location): \(error)")
      return nil
    }
    return PulledSnapshot(name: name, snapshot: snapshot, cursor: state.encoded)
  }

  public func batchCount(device: String) throws(SyncError) -> Int {
    let response = try transport.send("GET", APIPath.batches(device: device))
    guard response.status == 200 else { throw unexpected(response, doing: "count batches") }
    guard let body = try? BatchCountBody(parsing: response.body) else {
      throw .remoteUnavailable(location, reason: "the server's count of batches cannot be read")
    }
    return body.batches
  }

  public func deleteBatches(device: String, through seq: Int) throws(SyncError) {
    let response = try transport.send(
      "DELETE", APIPath.batches(device: device) + "?\(APIQuery.through)=\(seq)")
    guard response.status == 200 else {
      throw unexpected(response, doing: "delete compacted batches")
    }
  }

  public func keys() throws(SyncError) -> RemoteKeys? {
    let response = try transport.send("GET", APIPath.keys)
    if response.status == 404 { return nil }
    guard response.status == 200 else { throw unexpected(response, doing: "read the key envelope") }
    do {
      return try RemoteKeys(bytes: response.body)
    } catch {
      throw .remoteUnavailable(
        location, reason: "the server's key envelope cannot be read: \(error)")
    }
  }

  public func putKeys(_ keys: RemoteKeys) throws(SyncError) {
    let response = try transport.send(
      "PUT", APIPath.keyEnvelope(version: keys.version), body: keys.bytes,
      contentType: ContentType.keyEnvelope)
    switch response.status {
    case 200, 201: return
    case 409: throw .keysChanged(location)
    default: throw unexpected(response, doing: "store the key envelope")
    }
  }

  /// The cursor a request names: only a token the server gave, since it is sent back in a URL.
  private func checkedCursor(_ state: HTTPPullState) throws(SyncError) -> String {
    guard CursorToken.isValid(state.next) else {
      throw .remoteUnavailable(
        location, reason: "the stored cursor is not one the server gave; remove and add the remote")
    }
    return state.next
  }

  private func unexpected(_ response: HTTPTransport.Response, doing what: String) -> SyncError {
    .remoteUnavailable(
      location,
      reason: "the server answered \(response.status) when asked to \(what): "
        + transport.serverMessage(response.body))
  }
}
