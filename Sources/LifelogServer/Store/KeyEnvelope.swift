/// One version of a user's key envelope: the bytes a client wrote for an encrypted remote.
///
/// They hold its wrapped data key and the parameters to unwrap it. The server keeps them and hands
/// them out; it never reads them and never needs a key.
public struct KeyEnvelope: Equatable, Sendable {
  public var version: Int64
  public var bytes: [UInt8]

  public init(version: Int64, bytes: [UInt8]) {
    self.version = version
    self.bytes = bytes
  }
}
