/// A hybrid-logical-clock stamp: when a field was last written, totally ordered across machines.
///
/// The text is fixed-width lower-case hex, so comparing two stamps as strings orders them:
/// 12 digits of wall-clock milliseconds, 4 of a logical counter, 12 of the writing device's id.
/// The empty string is older than every stamp (a default nobody has written).
///
/// Every stamp is exactly ``length`` wide: ``make(milliseconds:counter:device:)`` caps each part
/// at its width, because a 13th digit would sort wrongly and be refused by every reader
/// (docs/sync-protocol.md §2, "A rule for clocks").
public enum Stamp {
  /// The stamp of a value that was never written: older than any other.
  public static let never = ""
  public static let length = 28
  /// The largest wall-clock part: 12 hex digits (the year 10889).
  public static let maximumMilliseconds: Int64 = 0xFFFF_FFFF_FFFF
  /// The largest logical counter: 4 hex digits.
  public static let maximumCounter = 0xFFFF
  /// How far ahead of the receiver's wall clock a received stamp may be before the batch or
  /// snapshot carrying it is held back (docs/sync-protocol.md §2): above any NTP error, below the
  /// point where a field frozen by a wrong clock would hurt.
  public static let aheadLimit: Int64 = 3_600_000

  /// The stamp of a reading; parts beyond their width are capped, so the result is always 28 wide.
  public static func make(milliseconds: Int64, counter: Int, device: String) -> String {
    let ms = UInt64(min(max(milliseconds, 0), maximumMilliseconds))
    let count = UInt64(min(max(counter, 0), maximumCounter))
    return hex(ms, width: 12) + hex(count, width: 4) + devicePart(device)
  }

  /// The wall-clock milliseconds a stamp carries, or nil for a malformed one.
  public static func milliseconds(_ stamp: String) -> Int64? { milliseconds(utf8: stamp.utf8) }

  /// The wall-clock milliseconds of a stamp given as its bytes (a column read in place), or nil
  /// for a malformed one: the one reader of a stamp's time, for strings and raw columns alike.
  public static func milliseconds(utf8 stamp: some Collection<UInt8>) -> Int64? {
    guard isValid(utf8: stamp) else { return nil }
    var milliseconds: Int64 = 0
    for byte in stamp.prefix(12) {
      milliseconds = milliseconds << 4 | Int64(byte <= 57 ? byte - 48 : byte - 87)
    }
    return milliseconds
  }

  /// The logical counter a stamp carries.
  public static func counter(_ stamp: String) -> Int? {
    guard isValid(stamp) else { return nil }
    return Int(stamp.dropFirst(12).prefix(4), radix: 16)
  }

  /// Whether `text` is a well-formed stamp.
  public static func isValid(_ text: String) -> Bool { isValid(utf8: text.utf8) }

  /// Whether `bytes` are a well-formed stamp: exactly ``length`` lower-case hex digits.
  public static func isValid(utf8 bytes: some Collection<UInt8>) -> Bool {
    bytes.count == length && bytes.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// The 12 hex digits of a device id that go into its stamps.
  public static func devicePart(_ device: String) -> String {
    let digits = String(device.lowercased().filter(\.isHexDigit).prefix(12))
    // Fixed width, whatever the id.
    return digits + String(repeating: "0", count: 12 - digits.count)
  }

  static func hex(_ value: UInt64, width: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}

/// The hybrid logical clock of docs/design.md §3: `now = max(wall clock, last stamp seen + 1)`.
///
/// Receiving a remote stamp advances it, so an edit made after seeing a change always wins over
/// that change even when this machine's wall clock is behind. It never runs past what a stamp can
/// hold (it saturates instead), and a received stamp never moves it beyond the wall clock plus
/// ``Stamp/aheadLimit``: batches carrying such stamps are held back, not merged, so this cap is
/// only a second fence.
public struct HybridClock: Equatable, Sendable {
  public var milliseconds: Int64
  public var counter: Int

  public init(milliseconds: Int64 = 0, counter: Int = 0) {
    self.milliseconds = milliseconds
    self.counter = counter
  }

  /// Whether a reading of `milliseconds` and `counter` can be written in a stamp (12 hex digits
  /// and 4): a persisted clock outside them would widen, or be capped in, every later stamp.
  public static func fitsInStamp(milliseconds: Int64, counter: Int) -> Bool {
    (0...Stamp.maximumMilliseconds).contains(milliseconds)
      && (0...Stamp.maximumCounter).contains(counter)
  }

  /// The later of this reading and `other`.
  public func later(_ other: HybridClock) -> HybridClock {
    (other.milliseconds, other.counter) > (milliseconds, counter) ? other : self
  }

  /// Advances the clock for a local write at wall time `wall` and returns the new reading.
  public mutating func tick(wall: Int64) -> HybridClock {
    let wall = min(wall, Stamp.maximumMilliseconds)
    if wall > milliseconds {
      milliseconds = wall
      counter = 0
    } else if counter < Stamp.maximumCounter {
      counter += 1
    } else if milliseconds < Stamp.maximumMilliseconds {
      milliseconds += 1
      counter = 0
    }  // else saturated: the year 10889, and the stamp stays 28 wide
    return self
  }

  /// Moves the clock past a stamp received from another machine, but never beyond `wall` plus
  /// ``Stamp/aheadLimit``.
  public mutating func observe(_ stamp: String, wall: Int64) {
    guard let ms = Stamp.milliseconds(stamp), let count = Stamp.counter(stamp) else { return }
    let limit =
      wall > Stamp.maximumMilliseconds - Stamp.aheadLimit
      ? Stamp.maximumMilliseconds : wall + Stamp.aheadLimit
    guard ms <= limit else { return }  // not merged either: nothing to win against
    if ms > milliseconds || (ms == milliseconds && count > counter) {
      milliseconds = ms
      counter = count
    }
  }
}

/// The per-field stamps of one row, stored compactly in its `stamps` column.
///
/// When every field has the same stamp (a row written once) the column holds that one stamp;
/// otherwise it holds one stamp per field, comma-separated, in the entity's field order.
public struct FieldStamps: Equatable, Sendable {
  public private(set) var stamps: [String]

  public init(count: Int, stamp: String = Stamp.never) {
    stamps = Array(repeating: stamp, count: count)
  }

  public init(decoding text: String, count: Int) {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    stamps =
      parts.count == count ? parts : Array(repeating: parts.first ?? Stamp.never, count: count)
  }

  public subscript(index: Int) -> String {
    get { stamps[index] }
    set { stamps[index] = newValue }
  }

  public var encoded: String {
    stamps.allSatisfy({ $0 == stamps[0] }) ? stamps[0] : stamps.joined(separator: ",")
  }

  /// The newest stamp of any field.
  public var newest: String { stamps.max() ?? Stamp.never }
}
