import LifelogProtocol

/// A stored snapshot, without its bytes.
public struct SnapshotRecord: Equatable, Sendable {
  public var id: Int64
  public var name: String
  /// The device that wrote it.
  public var device: String
  /// When it was written (Unix milliseconds, from its header).
  public var created: Int64
  /// The batches of each device whose changes it holds.
  public var covers: VersionVector
  public var sha256: String
  public var size: Int
}
