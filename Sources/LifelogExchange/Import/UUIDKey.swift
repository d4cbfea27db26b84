import LifelogCore

/// An id's 16 bytes as a set or dictionary key: a third of its text's size, and no allocation.
struct UUIDKey: Hashable {
  var high: UInt64
  var low: UInt64

  /// The key of 16 bytes (the first 16 of longer ones; shorter ones are padded with zeros).
  init(bytes: [UInt8]) {
    var high: UInt64 = 0
    var low: UInt64 = 0
    for index in 0..<8 {
      high = high << 8 | UInt64(index < bytes.count ? bytes[index] : 0)
      low = low << 8 | UInt64(index + 8 < bytes.count ? bytes[index + 8] : 0)
    }
    self.high = high
    self.low = low
  }

  /// The key of an entry id: its bytes when it is a lower-case UUID (every id an import gives),
  /// else a SHA-256 of its text.
  init(_ id: String) {
    self.init(
      bytes: StoredEntryID.key(ofText: id) ?? Array(SHA256.hash(Array(id.utf8)).prefix(16)))
  }
}
