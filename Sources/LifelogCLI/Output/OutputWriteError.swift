@preconcurrency import Glibc

/// Output that could not be written: standard output or the `--output` file.
///
/// Exit 74 (`> /dev/full`, a full disk, an I/O error), or 73 when the file could not even be
/// created.
///
/// A closed pipe (`lifelog list | head`) is no failure: the reader has what it wanted.
struct OutputWriteError: Error, CustomStringConvertible {
  /// The `--output` file; nil for standard output.
  let path: String?
  /// The system's reason (`errno`).
  let code: Int32
  /// Whether the file could not be created (its folder's permissions, a read-only file system).
  var creating = false
  /// Whether the command had already changed the log when its output failed (an `add` whose
  /// confirmation line could not be written): the message then says so, and not to run it again.
  var changeSaved = false

  var exitCode: Int32 { creating ? ExitCode.cannotCreate : ExitCode.ioError }

  var description: String {
    let reason = String(cString: strerror(code))
    let target = path.map { "'\($0)'" } ?? "the output"
    if creating {
      return
        "Cannot create \(target): \(reason); check the folder's permissions or choose another path"
    }
    var kept = path == nil ? "the output is incomplete" : "\(target) was left as it was"
    if changeSaved {
      kept += ", but the command's change to the log was saved: do not run it again"
    }
    let again = changeSaved ? "" : " and run again"
    if code == ENOSPC || code == EDQUOT {
      guard let path else {
        return "Cannot write the output: the disk receiving it is full (\(reason)); \(kept). "
          + "Free space\(again)"
      }
      let free = FreeSpace.kilobytes(near: path).map { ", \($0) KB free" } ?? ""
      return "Cannot write \(target): the disk holding it is full\(free); \(kept). "
        + "Free space\(again)"
    }
    return "Cannot write \(target): \(reason); \(kept). Check the disk (see `dmesg`)\(again)"
  }
}
