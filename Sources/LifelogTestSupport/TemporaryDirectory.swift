import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
  public let path: String

  public init(prefix: String = "lifelog-test") {
    var template = Array((NSTemporaryDirectory() + "/\(prefix).XXXXXX").utf8CString)
    // The template is never empty, so it has an address; mkdtemp fills in its X's.
    let created = template.withUnsafeMutableBufferPointer {
      $0.baseAddress.flatMap { mkdtemp($0) } != nil
    }
    precondition(created, "mkdtemp failed: \(String(cString: strerror(errno)))")
    path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// A path inside the folder.
  public func file(_ name: String) -> String { path + "/" + name }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
