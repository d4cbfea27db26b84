import LifelogProtocol

/// One pull page being filled, device by device and batch by batch, in a remote made of files
/// (a folder or a WebDAV collection, docs/sync-protocol.md §4).
///
/// It makes the decisions both share: when the page is full, which batch is held and why, and
/// when the version vector moves on. It takes names and bytes already read, so each remote keeps
/// its own reading: descriptor-relative opens for a folder, requests for WebDAV.
struct BatchPage {
  private(set) var page: PullPage
  /// Per device, the highest seq taken with every lower one taken too.
  private(set) var vector: VersionVector
  private let rowLimit: Int
  private let rules: PullRules
  private let envelope: BatchEnvelope
  private var rows = 0
  private var bytes = 0

  init(
    cursor: String, vector: VersionVector, rowLimit: Int, rules: PullRules,
    envelope: BatchEnvelope
  ) {
    page = PullPage(batches: [], cursor: cursor, more: false, skipped: [])
    self.vector = vector
    self.rowLimit = rowLimit
    self.rules = rules
    self.envelope = envelope
  }

  /// The seq `device` needs next.
  func next(of device: String) -> Int { vector[device] + 1 }

  /// Whether the page holds enough, by rows or by bytes; then it says another page waits.
  ///
  /// A page holds at least one batch, and ends at `rowLimit` rows or ``FileRemote/Limit/page``
  /// bytes: otherwise batches of one row and many megabytes each would make a page of any size.
  mutating func isFull() -> Bool {
    guard rows >= rowLimit || bytes >= FileRemote.Limit.page else { return false }
    page.more = true
    return true
  }

  /// Whether a missing batch `seq` is a gap (a later batch is among the `names` listed) rather
  /// than the end of what the device pushed.
  static func isGap(_ seq: Int, among names: some Sequence<String>) -> Bool {
    names.contains { name in
      guard let number = FileRemote.number(inName: name, suffix: ".batch") else { return false }
      return number > seq
    }
  }

  /// Holds `device`'s next batch as missing: a later one is there, so it was lost or is still
  /// being copied.
  mutating func holdMissing(_ device: String) {
    page.held.append(HeldBatch(device: device, seq: next(of: device), reason: .missing))
  }

  /// Holds `device`'s next batch as unreadable, with a warning naming `path`.
  mutating func holdUnreadable(_ device: String, path: String, reason: String) {
    page.skipped.append("\(path): \(reason)")
    page.held.append(HeldBatch(device: device, seq: next(of: device), reason: .unreadable(reason)))
  }

  /// Takes the bytes of `device`'s next batch, read from `path`.
  ///
  /// When they open and the rules allow them the batch joins the page and the vector moves on;
  /// otherwise the batch is held.
  ///
  /// - Returns: whether the batch was taken (the device's walk may go on).
  mutating func take(_ read: [UInt8], of device: String, path: String) -> Bool {
    let seq = next(of: device)
    bytes += read.count
    let batch: Batch
    do {
      batch = try envelope.open(read, name: .batch(device: device, seq: seq))
    } catch {
      holdUnreadable(device, path: path, reason: String(describing: error))
      return false
    }
    if let reason = rules.hold(batch) {
      page.held.append(HeldBatch(device: device, seq: seq, reason: reason))
      return false
    }
    page.batches.append(PulledBatch(name: "\(device)/\(seq)", batch: batch))
    rows += batch.changes.count
    vector[device] = seq
    return true
  }

  /// The finished page, with `cursor` as where the next pull starts.
  func finished(cursor: String) -> PullPage {
    var page = page
    page.cursor = cursor
    return page
  }
}
