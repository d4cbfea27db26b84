/// A sync that failed after it had merged or pushed batches: those are kept, and the message
/// says so instead of "nothing was changed".
struct SyncProgressError: Error {
  let remote: String
  let pulled: Int
  let pushed: Int
  let cause: any Error

  /// What was done before the failure, to follow the cause's message.
  var done: String {
    var parts: [String] = []
    if pulled > 0 {
      parts.append("pulled and merged \(pulled) batch\(pulled == 1 ? "" : "es")")
    }
    if pushed > 0 { parts.append("pushed \(pushed)") }
    return "before that, the sync with '\(remote)' \(parts.joined(separator: " and ")), "
      + "which \(pulled + pushed == 1 ? "is" : "are") kept"
  }

  /// The cause's message without a closing "Nothing was changed", which is no longer true.
  static func withoutNothingChanged(_ message: String) -> String {
    for ending in [". Nothing was changed", "; nothing was changed"] where message.hasSuffix(ending)
    {
      return String(message.dropLast(ending.count))
    }
    return message
  }
}
