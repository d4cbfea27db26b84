@preconcurrency import Glibc

/// Where a command writes: standard output or error, or a buffer in tests.
public protocol TextOutput: AnyObject {
  func write(_ text: String)
  func flush()
  /// The `errno` of the first write that failed for another reason than a closed pipe; nil
  /// while every write succeeded.
  var writeFailure: Int32? { get }
}

extension TextOutput {
  public var writeFailure: Int32? { nil }
}

/// A file descriptor, written in large blocks (a 100,000-entry listing is one `write` per 64 KiB).
public final class FileOutput: TextOutput {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  public private(set) var writeFailure: Int32?
  /// How many more times a write that failed (other than on a closed pipe) is tried again.
  private let retries: Int

  /// - Parameter retries: how many times to try a failed write again. Standard error takes a
  ///   few: an error message is the last thing a failing command can say, and a disk that fails
  ///   one write (a file that standard error goes to) often takes the next.
  public init(descriptor: Int32, retries: Int = 0) {
    self.descriptor = descriptor
    self.retries = retries
    buffer.reserveCapacity(1 << 16)
  }

  public func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  public func flush() {
    var offset = 0
    var retriesLeft = retries
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { bytes in
        Glibc.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        if errno != EPIPE, retriesLeft > 0 {
          retriesLeft -= 1
          continue
        }
        // A closed pipe (`lifelog list | head`) is no failure: the reader has what it wanted.
        if errno != EPIPE, writeFailure == nil { writeFailure = errno }
        break  // nothing more can be written
      }
      offset += written
    }
    buffer.removeAll(keepingCapacity: true)
  }

  deinit { flush() }
}

/// Output kept in memory, for tests and the interactive shell.
public final class CapturedOutput: TextOutput {
  public private(set) var text = ""
  public init() {}
  public func write(_ text: String) { self.text += text }
  public func flush() {}
}
