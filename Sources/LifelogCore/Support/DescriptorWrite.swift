@preconcurrency import Glibc

/// Writing a whole buffer to a file descriptor.
public enum DescriptorWrite {
  /// Writes every byte of `bytes` to `descriptor`: `write(2)` may take fewer bytes than asked, and
  /// a signal may interrupt it (`EINTR`), so it is called again until all are written.
  ///
  /// - Returns: false when `write` fails; `errno` says why.
  public static func all(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }
}
