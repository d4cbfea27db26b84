/// A hybrid-logical-clock stamp: when a field was last written, totally ordered across machines.
///
/// The text is fixed-width lower-case hex, so comparing two stamps as strings orders them:
/// 12 digits of wall-clock milliseconds, 4 of a logical counter, 12 of the writing device's id.
/// The empty string is older than every stamp (a default nobody has written).
public enum Stamp {
  /// The stamp of a value that was never written: older than any other.
  public static let never = ""
  public static let length = 28

  public static func make(milliseconds: Int64, counter: Int, device: String) -> String {
    hex(UInt64(milliseconds), width: 12) + hex(UInt64(counter), width: 4) + devicePart(device)
  }

  /// The wall-clock milliseconds a stamp carries, or nil for a malformed one.
  public static func milliseconds(_ stamp: String) -> Int64? {
    guard stamp.utf8.count == length else { return nil }
    return Int64(stamp.prefix(12), radix: 16)
  }

  /// The logical counter a stamp carries.
  public static func counter(_ stamp: String) -> Int? {
    guard stamp.utf8.count == length else { return nil }
    return Int(stamp.dropFirst(12).prefix(4), radix: 16)
  }

  /// Whether `text` is a well-formed stamp.
  public static func isValid(_ text: String) -> Bool {
    text.utf8.count == length && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// The 12 hex digits of a device id that go into its stamps.
  public static func devicePart(_ device: String) -> String {
    let digits = String(device.lowercased().filter(\.isHexDigit).prefix(12))
    return digits + String(repeating: "0", count: 12 - digits.count)  // fixed width, whatever the id
  }

  static func hex(_ value: UInt64, width: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}

/// The hybrid logical clock of DESIGN §3: `now = max(wall clock, last stamp seen + 1)`.
///
/// Receiving a remote stamp advances it, so an edit made after seeing a change always wins over
/// that change even when this machine's wall clock is behind.
public struct HybridClock: Equatable, Sendable {
  public var milliseconds: Int64
  public var counter: Int

  public init(milliseconds: Int64 = 0, counter: Int = 0) {
    self.milliseconds = milliseconds
    self.counter = counter
  }

  /// Advances the clock for a local write at wall time `wall` and returns the new reading.
  public mutating func tick(wall: Int64) -> HybridClock {
    if wall > milliseconds {
      milliseconds = wall
      counter = 0
    } else {
      counter += 1
      if counter > 0xFFFF {
        milliseconds += 1
        counter = 0
      }
    }
    return self
  }

  /// Moves the clock past a stamp received from another machine.
  public mutating func observe(_ stamp: String) {
    guard let ms = Stamp.milliseconds(stamp), let count = Stamp.counter(stamp) else { return }
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
    stamps = parts.count == count ? parts : Array(repeating: parts.first ?? Stamp.never, count: count)
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
