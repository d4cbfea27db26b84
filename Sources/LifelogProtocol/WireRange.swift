/// The range of every number the protocol carries, defined once for both sides of the wire.
///
/// The server checks a number against its range on the way in (a path, a query, a batch header)
/// and refuses it with 400, so it never stores what a client would refuse; the client checks the
/// same range before it sends a number and when it reads one back. A number past its range on a
/// page from the server holds back only the device it belongs to (docs/security.md).
///
/// docs/openapi.yaml states the same bounds (`minimum`/`maximum`); ``WireRangeTests`` keeps the two
/// in step.
public struct WireRange: Equatable, Sendable, CustomStringConvertible {
  public let lowerBound: Int64
  public let upperBound: Int64

  public init(_ range: ClosedRange<Int64>) {
    lowerBound = range.lowerBound
    upperBound = range.upperBound
  }

  /// The largest number of the 32-bit ranges: 2^31 - 1.
  ///
  /// A device counting one batch a second would take 68 years to reach it.
  public static let largest32 = Int64(Int32.max)

  /// A device's batch number: the path's `{seq}`, a batch header's `seq`, a page entry's `seq`,
  /// `?through=` and the seqs of a version vector (`covers`, a cursor's floor).
  public static let seq = WireRange(1...largest32)
  /// A seq in a version vector, where 0 means "none yet".
  public static let vectorSeq = WireRange(0...largest32)
  /// The version of a key envelope (`PUT /v1/keys/{version}`).
  public static let keyVersion = WireRange(1...largest32)
  /// A count of rows or batches (`rows` of a page entry, `batches` and `highestSeq` of a count).
  public static let count = WireRange(0...largest32)
  /// A server cursor (a page entry's `cursor`, the first part of an `after` token): at most 18
  /// digits, so it always fits Int64 and survives JSON readers that keep 64-bit integers.
  public static let cursor = WireRange(0...999_999_999_999_999_999)

  /// Whether `value` is in the range.
  public func contains(_ value: Int64) -> Bool { value >= lowerBound && value <= upperBound }

  /// Whether `value` is in the range.
  public func contains(_ value: Int) -> Bool { contains(Int64(value)) }

  /// `value` when it is in the range, else nil: the one way to take a number from outside.
  public func checked(_ value: Int64?) -> Int? {
    guard let value, contains(value) else { return nil }
    return Int(value)
  }

  /// The most decimal digits a number of the range has.
  public var maximumDigits: Int { String(upperBound).utf8.count }

  /// A positive decimal number as a path or query writes it (no sign, no leading zeros) in the
  /// range; nil for anything else, however long.
  public func parse(decimal text: some StringProtocol) -> Int? {
    let utf8 = text.utf8
    guard !utf8.isEmpty, utf8.count <= maximumDigits,
      utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      utf8.first != 0x30 || utf8.count == 1,
      let value = Int64(String(text))
    else { return nil }
    return checked(value)
  }

  /// `1 to 2147483647`, for error messages.
  public var description: String { "\(lowerBound) to \(upperBound)" }
}
