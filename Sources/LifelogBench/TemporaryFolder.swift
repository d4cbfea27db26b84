@preconcurrency import Glibc

/// A private folder made with `mkdtemp`, removed with everything in it when the run ends.
struct TemporaryFolder {
  let path: String

  /// Creates `$TMPDIR/<prefix>.XXXXXX` (or under `/tmp`).
  init(prefix: String) throws {
    let tmpdir = getenv("TMPDIR").map { String(cString: $0) } ?? ""
    let base = tmpdir.isEmpty ? "/tmp" : tmpdir
    var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap(mkdtemp) })
    else {
      let reason = String(cString: strerror(errno))
      throw BenchmarkError("cannot create a folder in '\(base)': \(reason)")
    }
    path = String(cString: made)
  }

  /// Deletes the folder and its contents (symbolic links are removed, never followed).
  func remove() {
    TemporaryFolder.removeTree(path)
  }

  private static func removeTree(_ path: String) {
    if let directory = opendir(path) {
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name == "." || name == ".." { continue }
        let child = path + "/" + name
        var info = stat()
        if lstat(child, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
          removeTree(child)
        } else {
          unlink(child)
        }
      }
      closedir(directory)
    }
    rmdir(path)
  }
}
