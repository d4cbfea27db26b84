@preconcurrency import Glibc
import Synchronization

/// A zone from the system time-zone database, read through the C library (which honours `TZ`).
///
/// The C library keeps one current zone per process, so every conversion runs under one lock;
/// a zone with an identifier switches `TZ` for the duration of the call and puts it back. The
/// command-line tool uses ``current`` (no switching); tests name their zones.
public struct SystemTimeZone: TimeZoneRules {
  /// The zone name (`Europe/Warsaw`), or nil for the zone the process runs in.
  public let identifier: String?

  private static let lock = Mutex(())

  /// The process's own zone: `TZ` when set, else `/etc/localtime`.
  public static let current = SystemTimeZone(identifier: nil)

  public init(identifier: String?) {
    self.identifier = identifier
  }

  public func offsetSeconds(at instant: Int64) -> Int {
    SystemTimeZone.lock.withLock { _ in
      withZone {
        var time = time_t(instant)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
      }
    }
  }

  private func withZone<T>(_ body: () -> T) -> T {
    guard let identifier else { return body() }
    let saved = getenv("TZ").map { String(cString: $0) }
    setenv("TZ", identifier, 1)
    tzset()
    defer {
      if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
      tzset()
    }
    return body()
  }

  /// Whether the C library will understand `name` as a zone rather than silently using UTC.
  ///
  /// A name is understood when it is a file of the zone database (or an absolute path to one), or
  /// a POSIX rule such as `CET-1CEST,M3.5.0,M10.5.0/3` or `UTC0`.
  public static func isKnown(_ name: String) -> Bool {
    var name = Substring(name)
    if name.hasPrefix(":") { name = name.dropFirst() }
    if name.isEmpty || name == "UTC" || name == "GMT" { return true }
    let path = name.hasPrefix("/") ? String(name) : "/usr/share/zoneinfo/\(name)"
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(path, R_OK) == 0 {
      return true
    }
    let letters = name.prefix { $0.isLetter }
    let rest = name.dropFirst(letters.count)
    let offset = rest.first == "+" || rest.first == "-" ? rest.dropFirst() : rest
    return letters.count >= 3 && (offset.first?.isASCIIDigit ?? false)
  }
}
