import LifelogCore

/// The most bytes one record of an import file may take: a CSV record, a JSON Lines line, an
/// element of a foreign tool's JSON export.
///
/// 1 MiB holds a note of 400 pages; a record past it is not an entry but a quote never closed or
/// a file that is not what it claims, and reading on would hold it all in memory. So the reader
/// stops there, holding at most this much and one chunk of the input.
public enum RecordLimit {
  public static let bytes = 1 << 20

  /// The error for a record starting on `line` that grew past ``bytes`` (exit 65).
  public static func exceeded(line: Int, what: String) -> InputError {
    InputError(
      "line \(line): \(what) is longer than \(bytes) bytes (1 MiB), the most lifelog reads as one "
        + "record; look for a quote that is never closed, or split the record")
  }
}
