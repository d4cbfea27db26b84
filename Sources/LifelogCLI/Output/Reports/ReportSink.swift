import LifelogCore

/// Where a report's text goes as it is made: standard output, or the `--output` file (written
/// beside its target and put in place by ``finish()``), in pieces of about 64 KiB, so a report
/// of any length is never held whole.
///
/// Renderers hand it text (`String` pieces) or write bytes into its buffer; a failed write to the
/// file is kept and thrown by ``finish()``, and what comes after it is dropped.
final class ReportSink {
  /// How many bytes are gathered before they are written.
  static let pieceBytes = 1 << 16

  private let output: any TextOutput
  private let file: OutputFile?
  private var text = TextBytes(capacity: ReportSink.pieceBytes + 4096)
  private var failure: OutputWriteError?

  /// - Parameter file: the `--output` file; nil for standard output.
  init(output: any TextOutput, file: OutputFile?) {
    self.output = output
    self.file = file
  }

  /// Appends what `build` writes, and writes the gathered bytes once they reach a piece.
  func write(_ build: (inout TextBytes) -> Void) {
    build(&text)
    if text.count >= Self.pieceBytes { flush() }
  }

  /// Writes `piece` after what is gathered, as it is.
  func write(_ piece: String) {
    flush()
    deliver(piece)
  }

  /// Writes what is left and, for a file, flushes it to disk and renames it into place.
  ///
  /// - Throws: ``OutputWriteError`` when a write to the file failed.
  func finish() throws(OutputWriteError) {
    flush()
    if let failure { throw failure }
    try file?.commit()
  }

  private func flush() {
    guard text.count > 0 else { return }
    if let file {
      if failure == nil {
        do { try file.write(text.bytes) } catch { failure = error }
      }
    } else {
      output.write(text.string)
    }
    text.removeAll()
  }

  private func deliver(_ piece: String) {
    guard let file else { return output.write(piece) }
    guard failure == nil else { return }
    do { try file.write(Array(piece.utf8)) } catch { failure = error }
  }
}
