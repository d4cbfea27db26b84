import LifelogCore

/// A self-describing set of row changes: a batch one device pushes, or a snapshot of a whole log.
///
/// The file format is written down in docs/sync-protocol.md; ``BatchCodec`` reads and writes it.
public struct Batch: Equatable, Sendable {
  public enum Kind: String, Sendable { case batch, snapshot }

  public var kind: Kind
  /// The device that wrote it.
  public var device: String
  /// The device's batch number (1, 2, 3, … with no gaps); 0 for a snapshot.
  public var seq: Int
  /// When it was written (Unix milliseconds).
  public var created: Int64
  /// For a snapshot: the batches of each device whose changes it contains.
  public var covers: VersionVector
  public var changes: [RowChange]

  public init(
    kind: Kind = .batch, device: String, seq: Int, created: Int64,
    covers: VersionVector = VersionVector(),
    changes: [RowChange]
  ) {
    self.kind = kind
    self.device = device
    self.seq = seq
    self.created = created
    self.covers = covers
    self.changes = changes
  }
}

/// Every field of one row, each with the stamp of its last write.
public struct RowChange: Equatable, Sendable {
  public var entity: SyncedEntity
  public var id: String
  /// One value per field of ``entity``, in ``SyncedEntity/fields`` order.
  public var values: [FieldValue]
  public var stamps: FieldStamps

  public init(entity: SyncedEntity, id: String, values: [FieldValue], stamps: FieldStamps) {
    self.entity = entity
    self.id = id
    self.values = values
    self.stamps = stamps
  }
}

/// The value of one synced field.
public enum FieldValue: Equatable, Sendable {
  case null
  case text(String)
  case integer(Int64)
  case real(Double)
  case flag(Bool)
  case time(LoggedTime)
  case tags([String])
}

/// What a device id may be: what a fresh log makes is a lower-case UUID, but any name of
/// 1–128 ASCII letters, digits and `-` is accepted, which is the rule for the names in the API's
/// paths (``APIPath/isName(_:)``) and keeps ids safe in file names and in `_`-joined cursor tokens.
public enum DeviceID {
  public static let maximumLength = APIPath.maximumNameLength

  /// The rule in words, for error messages.
  public static let rule = "1-128 letters, digits and '-'"

  public static func isValid(_ text: some StringProtocol) -> Bool { APIPath.isName(text) }
}

/// The highest contiguous batch seq seen from each device.
public struct VersionVector: Equatable, Sendable {
  public private(set) var seqs: [String: Int]

  public init(_ seqs: [String: Int] = [:]) { self.seqs = seqs }

  public subscript(device: String) -> Int {
    get { seqs[device] ?? 0 }
    set { seqs[device] = newValue }
  }

  /// Whether this vector has seen everything `other` has.
  public func covers(_ other: VersionVector) -> Bool {
    other.seqs.allSatisfy { self[$0.key] >= $0.value }
  }

  /// The larger seq of the two for every device.
  public func merged(with other: VersionVector) -> VersionVector {
    var result = self
    for (device, seq) in other.seqs where seq > result[device] { result[device] = seq }
    return result
  }

  /// `{"device":seq,…}` with devices sorted, so equal vectors encode alike.
  public var json: String {
    var object = JSONObjectWriter()
    for device in seqs.keys.sorted() { object.add(device, seqs[device]) }
    return object.result
  }

  public init(json: JSONValue?) throws(InputError) {
    guard let json, case .object(let members) = json else {
      throw InputError("a version vector must be a JSON object")
    }
    var seqs: [String: Int] = [:]
    for (device, value) in members {
      // Seqs count a device's batches: 2^31 of them is beyond any log, and a larger one (from a
      // forged snapshot's covers) would become a cursor the server refuses, stopping every pull.
      guard let seq = WireRange.vectorSeq.checked(value.integer) else {
        throw InputError("a version vector holds whole seqs from \(WireRange.vectorSeq)")
      }
      seqs[device] = seq
    }
    self.seqs = seqs
  }

  public init(parsing text: String) throws(InputError) {
    if text.isEmpty {
      self.init()
    } else {
      try self.init(json: try JSONValue.parse(Array(text.utf8)))
    }
  }
}
