@preconcurrency import Glibc

/// CPU seconds (user and system) used so far.
enum CPUTime {
  static func ofThisProcess() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// Of another process, from `/proc/PID/stat` (utime and stime, fields 14 and 15); 0 when unreadable.
  static func of(_ pid: pid_t) -> Double {
    guard let file = fopen("/proc/\(pid)/stat", "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 1024)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
    let line = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // Fields after the command name, which is in parentheses and may hold spaces: state is 3rd.
    guard let close = line.lastIndex(of: ")") else { return 0 }
    let fields = line[line.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return 0
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  private static func seconds(_ time: timeval) -> Double {
    Double(time.tv_sec) + Double(time.tv_usec) / 1e6
  }
}
