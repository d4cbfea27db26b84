import LifelogCore

/// `Retry-After` (RFC 9110 §10.2.3): what the parser keeps of it, and how it reads the value.
extension HTTPResponseParser {
  /// How long `Retry-After` asks to wait (RFC 9110 §10.2.3): seconds, or an HTTP date.
  public enum RetryAfter: Sendable, Equatable {
    /// 0 through ``HTTPResponseParser/maxRetrySeconds`` (larger values are cut to it).
    case seconds(Int64)
    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), as seconds since 1970.
    case date(unixSeconds: Int64)

    /// The wait in milliseconds from `now` (Unix milliseconds), never negative; no overflow for
    /// any value the parser makes.
    public func milliseconds(now: Int64) -> Int64 {
      switch self {
      case .seconds(let seconds): return min(seconds, HTTPResponseParser.maxRetrySeconds) * 1000
      case .date(let unixSeconds):
        let (target, overflow) = unixSeconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else {
          return unixSeconds < 0 ? 0 : HTTPResponseParser.maxRetrySeconds * 1000
        }
        let (wait, under) = target.subtractingReportingOverflow(now)
        return under ? 0 : max(0, min(wait, HTTPResponseParser.maxRetrySeconds * 1000))
      }
    }
  }

  /// About 31 years: any wait longer than a sync's `--timeout` makes it give up anyway.
  public static let maxRetrySeconds: Int64 = 1_000_000_000

  /// `Retry-After` as seconds (cut to ``maxRetrySeconds``) or an IMF-fixdate; nil for anything
  /// else (negative, a fraction, words, the obsolete date forms), which a client treats as absent.
  public static func retryAfter(_ text: String) -> RetryAfter? {
    let value = Array(trimmed(Array(text.utf8)[...]))
    guard !value.isEmpty else { return nil }
    if value.allSatisfy({ (0x30...0x39).contains($0) }) {
      var seconds: Int64 = 0
      for digit in value {
        seconds = min(seconds * 10 + Int64(digit - 0x30), maxRetrySeconds)
      }
      return .seconds(seconds)
    }
    return httpDate(value).map { .date(unixSeconds: $0) }
  }

  /// `Sun, 06 Nov 1994 08:49:37 GMT` as seconds since 1970.
  static func httpDate(_ bytes: [UInt8]) -> Int64? {
    guard bytes.count == 29 else { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
    let fields = text.split(separator: " ", omittingEmptySubsequences: false)
    let days = ["Mon,", "Tue,", "Wed,", "Thu,", "Fri,", "Sat,", "Sun,"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    guard fields.count == 6, days.contains(String(fields[0])), fields[5] == "GMT",
      let month = months.firstIndex(of: String(fields[2])),
      let day = number(fields[1], digits: 2), let year = number(fields[3], digits: 4)
    else { return nil }
    let clock = fields[4].split(separator: ":", omittingEmptySubsequences: false)
    guard clock.count == 3, let hour = number(clock[0], digits: 2),
      let minute = number(clock[1], digits: 2),
      let second = number(clock[2], digits: 2), hour < 24, minute < 60, second <= 60,
      let date = CivilDate(year: year, month: month + 1, day: day)
    else { return nil }
    return date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  private static func number(_ text: Substring, digits: Int) -> Int? {
    guard text.utf8.count == digits, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      return nil
    }
    return text.utf8.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }
}
