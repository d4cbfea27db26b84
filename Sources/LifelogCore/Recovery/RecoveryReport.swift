/// What `lifelog recover` saved from a damaged log, table by table, and what it could not read.
public struct RecoveryReport: Sendable, Equatable {
  /// One table of the damaged log.
  public struct Table: Sendable, Equatable {
    public var name: String
    /// Rows copied into the new log.
    public var saved = 0
    /// Rows SQLite found but could not read (a damaged record).
    public var unreadableRows = 0
    /// Ranges of rowids skipped because the page holding them could not be read; the rows in them
    /// are lost (their number is unknown: at most the width of each range).
    public var unreadableRanges: [ClosedRange<Int64>] = []
    /// Whether the table could not be read at all (its root page is damaged).
    public var unreadable = false

    public init(name: String) { self.name = name }

    /// At most how many rows were lost: the damaged records plus the rowids of the skipped ranges.
    public var lostAtMost: Int64 {
      unreadableRanges.reduce(Int64(unreadableRows)) { total, range in
        let width = range.upperBound.subtractingReportingOverflow(range.lowerBound)
        guard !width.overflow, width.partialValue < Int64.max - total else { return Int64.max }
        return total + width.partialValue + 1
      }
    }

    /// Whether every row SQLite could find was saved.
    public var complete: Bool { !unreadable && unreadableRows == 0 && unreadableRanges.isEmpty }
  }

  public var tables: [Table] = []
  /// Whether the file's first 100 bytes (SQLite's header) were rebuilt before it could be read.
  public var headerRebuilt = false

  public init() {}

  /// Whether nothing at all was lost.
  public var complete: Bool { tables.allSatisfy(\.complete) }

  /// The rows saved in `table`, 0 when the table was not found.
  public func saved(_ table: String) -> Int { tables.first { $0.name == table }?.saved ?? 0 }
}
