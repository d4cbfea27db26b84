import Foundation
import LifelogTestSupport

/// A fresh folder for one simulation run, removed when the value goes away.
///
/// On a RAM-backed `/dev/shm` with room to spare when there is one (the files are as real, but
/// creating thousands of them and the engine's `fsync`s cost a disk-backed file system more
/// than the whole simulation); otherwise a ``TemporaryDirectory``.
final class SimulationDirectory {
  let path: String
  private let fallback: TemporaryDirectory?

  init() {
    var info = statvfs()
    let memory = "/dev/shm"
    if statvfs(memory, &info) == 0, UInt64(info.f_bavail) * UInt64(info.f_frsize) > 1 << 30,
      access(memory, W_OK) == 0
    {
      var template = Array((memory + "/lifelog-convergence.XXXXXX").utf8CString)
      let created: String? = template.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
        return String(cString: base)
      }
      if let created {
        path = created
        fallback = nil
        return
      }
    }
    let directory = TemporaryDirectory(prefix: "lifelog-convergence")
    path = directory.path
    fallback = directory
  }

  /// A path inside the folder.
  func file(_ name: String) -> String { path + "/" + name }

  deinit {
    if fallback == nil { try? FileManager.default.removeItem(atPath: path) }
  }
}
