import LifelogCore

/// What an ``ExportWriter`` writes: the entries of a range of the log, to standard output or the
/// `--output` file.
struct ExportJob {
  let store: LogStore
  /// The range's first instant (inclusive) and its end (exclusive); nil for no bound.
  let from: Int64?
  let to: Int64?
  /// `--output`, nil for standard output.
  let file: OutputFile?
  /// `--lang`, nil when not given.
  let language: Language?
  let context: Context

  /// Sends `bytes` to the file, or to standard output when there is none.
  func flush(_ bytes: [UInt8]) throws {
    if let file {
      try file.write(bytes)
    } else {
      context.output.write(String(decoding: bytes, as: UTF8.self))
    }
  }

  /// Puts the file in place once everything is written (nothing for standard output).
  func commit() throws { try file?.commit() }

  /// Runs a writer that streams bytes into ``flush(_:)``, then commits.
  ///
  /// - Returns: the number of entries the writer wrote.
  func streaming(_ write: (_ flush: ([UInt8]) throws -> Void) throws -> Int) throws -> Int {
    let count = try write(flush)
    try commit()
    return count
  }
}
