import LifelogCore
import LifelogProtocol

/// A remote in a WebDAV collection (Nextcloud, ownCloud, Apache mod_dav, rclone): the layout and
/// rules of a folder remote (docs/sync-protocol.md §4), each file one request.
///
/// ```
/// <root>/lifelog-remote.json              manifest
/// <root>/devices/<device>/<seq>.batch     seq zero-padded to 10 digits
/// <root>/snapshots/<name>.snapshot
/// <root>/keys/<version>.json              key envelopes of an encrypted remote
/// ```
///
/// Files are written once, with `If-None-Match: *`; a key envelope, the one file two machines may
/// race for, is read back. The root collection is made only by `lifelog remote add`: a missing or
/// emptied one is refused (exit 69), never made again. Compaction deletes only this device's
/// own batches. Pulls list only the folders whose marker changed (``DAVPullState``).
public final class DAVRemote: Remote {
  public var location: String { client.location }
  public var envelope: BatchEnvelope = .plain
  let client: DAVClient
  public var secrets: SecretScrubber { client.transport.scrubber }

  typealias Limit = FileRemote.Limit

  /// What this sync learned of `devices/` in ``pull(after:excluding:rowLimit:rules:)``: this
  /// device's folder marker, so ``batchCount(device:)`` can answer without a request.
  private var ownListed: (marker: String?, count: Int)?
  /// What ``snapshot(beyond:excluding:skipped:)`` learned, kept in the cursor ``pull`` returns.
  var snapshotsMarker: String?
  /// Whether this device pushed during this sync (its folder's marker changed then).
  private var pushed = false

  /// Requests sent so far: for the benchmark.
  public var requestCount: Int { client.requests }

  /// Whether `url` names a WebDAV remote.
  public static func handles(_ url: String) -> Bool {
    url.hasPrefix("dav://") || url.hasPrefix("davs://")
  }

  /// Whether `url` names one over plain HTTP, which only a trusted network should carry.
  public static func isPlain(_ url: String) -> Bool { url.hasPrefix("dav://") }

  /// - Parameters:
  ///   - url: `davs://host[:port]/path` (HTTPS) or `dav://host[:port]/path` (HTTP).
  ///   - user: the account's user name.
  ///   - password: its password (an app password, for a Nextcloud).
  ///   - deadline: Unix milliseconds by which every request, retries included, must be done.
  /// - Throws: ``InputError`` for an address that is not one.
  public init(
    url: String, user: String, password: String, caFile: String? = nil, deadline: Int64,
    now: @escaping @Sendable () -> Int64 = LogStore.systemMilliseconds
  ) throws(InputError) {
    let (base, path) = try DAVRemote.split(url)
    client = DAVClient(
      transport: HTTPTransport(
        baseURL: base + path, location: DAVRemote.canonical(url),
        credentials: .basic(user: user, password: password), caFile: caFile, deadline: deadline,
        now: now),
      rootPath: path)
  }

  /// The address as kept: without trailing slashes.
  public static func canonical(_ url: String) -> String {
    var url = url
    while url.hasSuffix("/") { url.removeLast() }
    return url
  }

  /// `https://host:port` (or `http://`) and the percent-encoded path of a `davs://`/`dav://`
  /// address.
  static func split(_ url: String) throws(InputError) -> (base: String, path: String) {
    let plain = url.hasPrefix("dav://")
    guard plain || url.hasPrefix("davs://") else {
      throw InputError("'\(url)' is not a WebDAV address (davs://host/path or dav://host/path)")
    }
    let rest = canonical(url).dropFirst(plain ? "dav://".count : "davs://".count)
    let authority = rest.prefix { $0 != "/" }
    let path = String(rest.dropFirst(authority.count))
    // Printable ASCII only, no user name in the address (--user gives it), no query or fragment.
    let allowed = { (byte: UInt8) in
      (0x21...0x7E).contains(byte) && !"\"<>\\^`{|}?#@".utf8.contains(byte)
    }
    guard !authority.isEmpty, authority.utf8.allSatisfy(allowed), path.utf8.allSatisfy(allowed),
      !path.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }),
      url.utf8.count <= 1000
    else {
      throw InputError(
        "Cannot use '\(url)' as a WebDAV remote; give davs://host[:port]/path with the path "
          + "percent-encoded (no spaces, user name, query or '..'), and the user with --user")
    }
    return ((plain ? "http://" : "https://") + authority, path)
  }

  // MARK: - Creating and joining

  /// The manifest at the address, or nil when the collection is missing or empty (a new remote
  /// may be made there); throws when it holds something else.
  public func existingManifest() throws(SyncError) -> RemoteManifest? {
    if try client.get(FileRemote.manifestName, limit: Limit.manifest) != nil {
      return try manifest()
    }
    guard let listing = try client.list("") else { return nil }
    guard listing.own?.isCollection ?? true else {
      throw .remoteUnavailable(location, reason: "it is a file, not a collection (folder)")
    }
    guard listing.members.filter({ !$0.name.hasPrefix(".") }).isEmpty else {
      throw .remoteUnavailable(
        location,
        reason:
          "the folder is not empty and holds no lifelog remote; give an empty or new folder")
    }
    return nil
  }

  /// Makes a new remote in a missing or empty collection; with `keys`, an encrypted one.
  ///
  /// The key
  /// envelope goes before the manifest, so a remote is never seen encrypted without keys.
  public func create(
    remoteID: String, minimumVersion: String, keys: RemoteKeys?
  ) throws(SyncError) -> RemoteManifest {
    if try client.makeCollection("") == .noParent {
      throw .remoteUnavailable(
        location,
        reason:
          "the folder above it does not exist; create it first (lifelog makes only the last one)")
    }
    for folder in ["devices", "snapshots"] { _ = try client.makeCollection(folder) }
    if let keys { try putKeys(keys) }
    let manifest = RemoteManifest(
      remoteID: remoteID, minimumVersion: minimumVersion, encrypted: keys != nil)
    let bytes = manifest.fileBytes
    guard try client.putOnce(FileRemote.manifestName, bytes) == .created,
      try client.get(FileRemote.manifestName, limit: Limit.manifest) == bytes
    else {
      throw .remoteUnavailable(
        location, reason: "another machine made a remote there at the same moment; add it again")
    }
    return manifest
  }

  public func manifest() throws(SyncError) -> RemoteManifest {
    guard let bytes = try client.get(FileRemote.manifestName, limit: Limit.manifest) else {
      throw .remoteUnavailable(
        location,
        reason:
          "it holds no \(FileRemote.manifestName) (was the folder emptied, moved or deleted?); "
          + "lifelog does not make it again")
    }
    guard let manifest = RemoteManifest(fileBytes: bytes) else {
      throw .remoteUnavailable(location, reason: "its \(FileRemote.manifestName) is damaged")
    }
    return manifest
  }

  // MARK: - Batches

  static func batchPath(device: String, seq: Int) -> String {
    "devices/\(device)/\(FileRemote.batchName(seq))"
  }

  /// Puts one batch once.
  ///
  /// A file already there with the same bytes is fine; one that opens and
  /// differs is a conflict (two logs share a device id); one that does not open (cut short by a
  /// server that died mid-write) is this device's own and is replaced.
  public func push(device: String, seq: Int, bytes plain: [UInt8]) throws(SyncError) {
    let path = DAVRemote.batchPath(device: device, seq: seq)
    let name = BatchEnvelope.Name.batch(device: device, seq: seq)
    let bytes = try envelope.seal(plain, at: location, name: name)
    pushed = true
    // Read first, as a folder remote does: some servers (rclone) ignore If-None-Match and would
    // overwrite a batch of a log copied from another machine.
    var existing = try client.get(path, limit: Limit.batch)
    for _ in 0..<3 {
      if let found = existing {
        if try envelope.isPushed(
          bytes, as: found, seq: seq, name: name, path: "\(location)/\(path)")
        {
          return
        }
        try client.delete(path)  // cut short when a server died mid-write: ours to replace
      }
      switch try client.putOnce(path, bytes) {
      case .created: return
      case .noParent:
        if try client.makeCollection("devices/\(device)") == .noParent {
          throw .remoteUnavailable(location, reason: "it holds no devices folder (was it emptied?)")
        }
        existing = nil
      case .exists:
        existing = try client.get(path, limit: Limit.batch)
      }
    }
    throw .remoteUnavailable(location, reason: "batch \(seq) could not be stored")
  }

  /// A marker of a collection's content: its ETag, with its modification time when it has one;
  /// nil when it has no ETag, or when it was changed too close to the server's clock at the
  /// listing to tell a change in the same tick apart.
  ///
  /// An ETag is needed: a collection's `getlastmodified` is not always kept up to date (rclone
  /// 1.60 reports the time it first saw the folder, whatever was added since), while an ETag is
  /// the server's word that the content is the same. The time joins it all the same, so a server
  /// whose folder ETag never changes (nothing in RFC 4918 makes one change) but whose time moves
  /// still shows a new batch; one where neither moves hides it, as any listing that lies does.
  /// A marker younger than two seconds by the server's clock (`Date`) is not trusted: Apache
  /// makes the ETag of the folder's modification time, which a file system keeps to a clock tick
  /// only. A server that gives the time but not its clock (every real one sends `Date`, RFC 9110
  /// §6.6.1) cannot be judged so, and gets no marker: its folders are listed on every sync.
  static func settled(_ entry: DAVMultistatus.Entry, in listing: DAVClient.Listing) -> String? {
    guard let etag = entry.etag else { return nil }
    if let modified = entry.lastModified {
      guard let now = listing.date, modified <= now - 2 else { return nil }
    }
    let marker = entry.lastModified.map { "\(etag) \($0)" } ?? etag
    return DAVPullState.isMarker(marker) ? marker : nil
  }

  /// The cursor is ``DAVPullState``: the version vector of a folder remote, plus the markers of
  /// folders read to their end.
  public func pull(
    after cursor: String, excluding device: String, rowLimit: Int, rules: PullRules
  ) throws(SyncError) -> PullPage {
    let before = DAVPullState(parsing: cursor)
    var state = before
    if let snapshotsMarker { state.snapshots = snapshotsMarker }
    var page = BatchPage(
      cursor: cursor, vector: before.vector, rowLimit: rowLimit, rules: rules, envelope: envelope)
    guard let devices = try client.list("devices") else {
      throw .remoteUnavailable(location, reason: "it holds no devices folder (was it emptied?)")
    }
    var markers: [String: String] = [:]
    for entry in devices.members where entry.isCollection {
      let other = entry.name
      guard APIPath.isName(other) else { continue }
      let marker = DAVRemote.settled(entry, in: devices)
      if other == device {
        if let marker, marker == before.own {
          ownListed = (marker, before.ownCount)
        } else if let listing = try client.list("devices/\(device)") {
          let count = DAVRemote.batchNumbers(in: listing).count
          ownListed = (marker, count)
          state.own = marker
          state.ownCount = count
        }
        continue
      }
      if let marker, before.devices[other] == marker {
        markers[other] = marker  // nothing added since it was read to its end
        continue
      }
      guard let listing = try client.list("devices/\(other)") else { continue }
      if try pullListed(listing.members.map(\.name), of: other, into: &page), let marker {
        markers[other] = marker
      }
    }
    if ownListed == nil { ownListed = (nil, 0) }  // nothing pushed here yet
    state.vector = page.vector
    state.devices = markers
    return page.finished(cursor: state.encoded)
  }

  /// Pulls `device`'s batches after the vector into `page`, from the file `names` its folder
  /// listed.
  ///
  /// - Returns: whether the device was read to its end (its folder's marker may be kept).
  private func pullListed(
    _ names: [String], of device: String, into page: inout BatchPage
  ) throws(SyncError) -> Bool {
    let seqs = Set(names.compactMap { FileRemote.number(inName: $0, suffix: ".batch") })
    while true {
      let seq = page.next(of: device)
      let path = DAVRemote.batchPath(device: device, seq: seq)
      guard seqs.contains(seq) else {
        guard BatchPage.isGap(seq, among: names) else { return true }
        page.holdMissing(device)
        return false
      }
      if page.isFull() { return false }
      let read: [UInt8]?
      do {
        read = try client.get(path, limit: Limit.batch)
      } catch {
        if case .remoteUnavailable(_, let reason) = error, reason.contains("larger than") {
          page.holdUnreadable(device, path: path, reason: reason)
          return false
        }
        throw error
      }
      // Deleted since the listing (compacted): the next sync sees why.
      guard let bytes = read else { return false }
      guard page.take(bytes, of: device, path: path) else { return false }
    }
  }

  public func batchCount(device: String) throws(SyncError) -> Int {
    if !pushed, let ownListed { return ownListed.count }
    guard let listing = try client.list("devices/\(device)") else { return 0 }
    return DAVRemote.batchNumbers(in: listing).count
  }

  /// The batches a listing of a device folder names, each once.
  ///
  /// Counted by number, not by entry: a server that lists one file twice, or names that only end in
  /// `.batch`, would otherwise make every sync think compaction is due and write a snapshot.
  static func batchNumbers(in listing: DAVClient.Listing) -> Set<Int> {
    Set(listing.members.compactMap { FileRemote.number(inName: $0.name, suffix: ".batch") })
  }

  public func deleteBatches(device: String, through seq: Int) throws(SyncError) {
    guard let listing = try client.list("devices/\(device)") else { return }
    for entry in listing.members {
      if let number = FileRemote.number(inName: entry.name, suffix: ".batch"), number <= seq {
        try client.delete(DAVRemote.batchPath(device: device, seq: number))
      }
    }
    pushed = true
  }
}
