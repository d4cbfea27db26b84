import LifelogCore
import LifelogProtocol

/// Batches in a folder remote: `devices/<device>/<seq>.batch`, pushed once each and pulled in
/// order per device.
extension FileRemote {
  func batchPath(device: String, seq: Int) -> String {
    root + "/devices/" + device + "/" + FileRemote.batchName(seq)
  }

  static func batchName(_ seq: Int) -> String { padded(seq) + ".batch" }

  /// The number in a file name written as ``padded(_:)`` + `suffix` (`0000000012.batch`,
  /// `0000000003.json`), or nil for any other name.
  ///
  /// Only the names lifelog writes count, and only numbers from 1 to 2^31 - 1: a name such as
  /// `9223372036854775807.batch` in a hostile folder must not reach `seq + 1`.
  static func number(inName name: String, suffix: String) -> Int? {
    guard name.hasSuffix(suffix), name.utf8.count <= 10 + suffix.utf8.count,
      let number = Int(name.dropLast(suffix.count)), WireRange.seq.contains(number),
      name == padded(number) + suffix
    else { return nil }
    return number
  }

  static func padded(_ seq: Int) -> String {
    let text = String(seq)
    return String(repeating: "0", count: max(0, 10 - text.count)) + text
  }

  public func push(device: String, seq: Int, bytes plain: [UInt8]) throws(SyncError) {
    let path = batchPath(device: device, seq: seq)
    let name = BatchEnvelope.Name.batch(device: device, seq: seq)
    let bytes = try envelope.seal(plain, at: root, name: name)
    guard let folder = try ownFolder(device, creating: true) else {
      throw .remoteUnavailable(root, reason: "no devices folder")
    }
    // A file there that cannot be read (a FIFO, a link, cut short by a file-syncing tool) is
    // replaced; a valid but different batch means two logs share a device id.
    if let existing = try? folder.read(FileRemote.batchName(seq), limit: Limit.batch),
      try envelope.isPushed(bytes, as: existing, seq: seq, name: name, path: path)
    {
      return
    }
    try checked { () throws(RemoteFileError) in
      try folder.writeAtomically(FileRemote.batchName(seq), bytes)
    }
  }

  /// The cursor is a version vector: per device, the highest seq read with every lower one read
  /// too.
  ///
  /// A device's first batch that is missing (a later one is there), unreadable or refused by
  /// `rules` is held, and the vector stays below it.
  public func pull(
    after cursor: String, excluding device: String, rowLimit: Int, rules: PullRules
  ) throws(SyncError) -> PullPage {
    var vector: VersionVector
    do { vector = try VersionVector(parsing: cursor) } catch { vector = VersionVector() }
    var page = BatchPage(
      cursor: cursor, vector: vector, rowLimit: rowLimit, rules: rules, envelope: envelope)
    guard let devices = try folder("devices") else { return page.finished(cursor: cursor) }
    let names = try checked { () throws(RemoteFileError) in try devices.list() }
    for other in names.filter({ !$0.hasPrefix(".") && $0 != device }).sorted() {
      // A device folder that cannot be opened holds back that device only, with a warning; a
      // stray file among the device folders is not a device.
      let opened: RemoteFolder?
      do {
        opened = try devices.folder(other)
      } catch {
        if error.kind != .notAFolder {
          page.holdUnreadable(other, path: "devices/\(other)", reason: String(describing: error))
        }
        continue
      }
      guard let folder = opened else { continue }
      while true {
        let name = FileRemote.batchName(page.next(of: other))
        guard folder.kind(of: name) != nil else {
          do {
            if BatchPage.isGap(page.next(of: other), among: try folder.list()) {
              page.holdMissing(other)
            }
          } catch {
            // A device folder that cannot be listed (more names than the cap) holds back only
            // that device.
            page.holdUnreadable(other, path: "devices/\(other)", reason: String(describing: error))
          }
          break
        }
        if page.isFull() { break }
        let read: [UInt8]?
        do {
          read = try folder.read(name, limit: Limit.batch)
        } catch {
          page.holdUnreadable(
            other, path: "devices/\(other)/\(name)", reason: String(describing: error))
          break
        }
        guard let bytes = read, page.take(bytes, of: other, path: "devices/\(other)/\(name)")
        else { break }
      }
    }
    return page.finished(cursor: page.vector.json)
  }
}
