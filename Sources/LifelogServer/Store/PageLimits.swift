/// How big a page of changes may get.
public struct PageLimits: Sendable {
  public var batches: Int
  public var rows: Int
  public var bytes: Int
  /// Batch records looked at per request, counting those skipped.
  public var scanned: Int

  public init(batches: Int = 1000, rows: Int = 5000, bytes: Int = 4 << 20, scanned: Int = 10_000) {
    self.batches = batches
    self.rows = rows
    self.bytes = bytes
    self.scanned = scanned
  }
}
