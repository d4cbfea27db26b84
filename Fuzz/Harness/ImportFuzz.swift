@preconcurrency import Glibc
import LifelogCore
import LifelogExchange

/// The import readers: ``CSVReader`` under ``CSVImportRecords``, and JSON Lines, each row then
/// validated as `lifelog import` does (times, durations, numbers).
///
/// The input goes through an unlinked scratch file in chunks of 1 to 64 bytes (the first byte
/// picks the size), so records and quotes that straddle a chunk boundary are tried too.
enum ImportFuzz {
  /// An unlinked file in the temporary folder, rewritten for every input.
  static let scratchFile: Int32 = {
    var template = Array("/tmp/lifelog-fuzz-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { fatalError("cannot make a scratch file") }
    unlink(template)
    return descriptor
  }()

  static func run(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let input = Array(bytes.dropFirst())
    let descriptor = scratchFile
    guard ftruncate(descriptor, 0) == 0 else { fatalError("cannot empty the scratch file") }
    var written = 0
    while written < input.count {
      let count = input.withUnsafeBytes {
        pwrite(descriptor, $0.baseAddress.map { $0 + written }, $0.count - written, written)
      }
      guard count > 0 else { fatalError("cannot write the scratch file") }
      written += count
    }
    lseek(descriptor, 0, SEEK_SET)
    let reader = ChunkedReader(
      descriptor: descriptor, closing: false, chunkSize: Int(first % 64) + 1)
    guard let format = try? ExchangeFormat.detect(path: nil, input: reader) else { return }
    let records = format.records(from: reader)
    // Bounded, so an input that keeps the reader from advancing shows up as a hang (a finding).
    for _ in 0..<100_000 {
      guard let record = try? records.next() else { return }
      if case .success(let row) = record { _ = try? row.validated(parser: TimeFuzz.parser) }
    }
  }
}
