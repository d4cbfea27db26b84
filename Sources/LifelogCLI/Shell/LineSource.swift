@preconcurrency import Glibc

/// Where the lines of `lifelog shell` come from.
protocol LineSource: AnyObject {
  /// The next line without its line ending; nil at the end of input.
  func readLine() -> String?
  /// Keeps a line that was run, for the history.
  func remember(_ line: String)
}

/// Lines read plainly from a file descriptor: `lifelog shell < commands.txt`, no prompt, no
/// history, no echo (readline would echo prompt and input to standard output).
final class PlainLineReader: LineSource {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0
  private var ended = false
  private var isFirstLine = true

  init(descriptor: Int32) { self.descriptor = descriptor }

  func readLine() -> String? {
    while true {
      if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        return takeLine(upTo: newline, skipping: 1)
      }
      if ended {
        return start < buffer.count ? takeLine(upTo: buffer.count, skipping: 0) : nil
      }
      fill()
    }
  }

  func remember(_ line: String) {}

  private func fill() {
    if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count < 0, errno == EINTR { return }
    if count <= 0 {
      ended = true
      return
    }
    buffer += chunk[..<count]
  }

  /// The bytes before `end` as a line (a CRLF ending and a leading byte-order mark dropped).
  private func takeLine(upTo end: Int, skipping separator: Int) -> String {
    var bytes = buffer[start..<end]
    start = end + separator
    if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
    if isFirstLine, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    isFirstLine = false
    return String(decoding: bytes, as: UTF8.self)
  }
}
