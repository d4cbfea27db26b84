import LifelogCore

/// The ids of the entries one foreign import makes: derived from what identifies a record in its
/// source (a timewarrior interval's start, a Watson frame's id, a jrnl entry's date, time and
/// title), so the same record imported again, or changed in a newer export, finds the same entry.
///
/// Two records of one file never share an id: a record the source cannot tell apart from an
/// earlier one of the same file (two jrnl entries "Ran." at 07:30, a Watch and a Strava workout
/// starting together) gets its ordinal among those equals mixed in. The first of equals keeps the
/// plain id, the one every earlier version gave it, so a log that imported the file before still
/// matches it; the second and later are the records those versions lost. The ordinal follows the
/// order of the file, which each tool keeps from one export to the next.
final class ForeignRecordIDs {
  private let source: ForeignSource
  /// How many records of the file had each plain id so far, keyed by the id's 16 bytes.
  private var counts: [UUIDKey: Int] = [:]

  init(_ source: ForeignSource) { self.source = source }

  /// The id of the next record whose identifying fields are `parts`.
  func next(_ parts: String...) -> String {
    let plain = Self.bytes(source, parts)
    let key = UUIDKey(bytes: plain)
    let ordinal = counts[key, default: 0] + 1
    counts[key] = ordinal
    let bytes = ordinal == 1 ? plain : Self.bytes(source, parts + ["#\(ordinal)"])
    return UUIDText.format(bytes)
  }

  /// A SHA-256 of the source's name and the parts, shaped as a version 8 UUID.
  static func bytes(_ source: ForeignSource, _ parts: [String]) -> [UInt8] {
    var seed = Array("lifelog-import:\(source.rawValue)".utf8)
    for part in parts {
      seed.append(contentsOf: "\(part.utf8.count):".utf8)  // length first: parts never run together
      seed.append(contentsOf: part.utf8)
    }
    return UUIDText.derivedBytes(fromSeed: seed)
  }
}
