@preconcurrency import Glibc
import LifelogCore

/// The systemd user units and the crontab line of `lifelog timer`: what runs, how often, and the
/// text of each file, in one place so the files and the crontab line cannot disagree.
struct TimerUnits {
  /// What a timer runs.
  enum Job: String, CaseIterable {
    case sync, remind

    /// The arguments after `lifelog --db PATH`.
    var arguments: [String] {
      switch self {
      case .sync: ["sync", "--quiet"]
      case .remind: ["remind", "--notify"]
      }
    }

    var summary: String {
      switch self {
      case .sync: "sync the log with its remotes"
      case .remind: "say when a meal is due"
      }
    }

    /// `lifelog-remind`.
    var unitName: String { "lifelog-\(rawValue)" }
  }

  let job: Job
  /// How often, in seconds: whole minutes dividing an hour, or whole hours dividing a day, so
  /// a crontab line can say it exactly too.
  let everySeconds: Int
  /// The absolute path of the `lifelog` binary and of the log.
  let binary: String
  let database: String

  /// The units for `job`, once the paths have passed ``checkWord(_:naming:)`` in the form they
  /// are written in.
  ///
  /// - Throws: ``InputError`` naming the path that a unit file or a crontab line cannot carry.
  init(job: Job, everySeconds: Int, binary: String, database: String) throws(InputError) {
    try Self.checkWord(binary, naming: "The lifelog binary's path")
    try Self.checkWord(database, naming: "The log's path")
    self.job = job
    self.everySeconds = everySeconds
    self.binary = binary
    self.database = database
  }

  /// Refuses a word that the quoting of ``execStart`` or ``crontabLine`` cannot carry as one
  /// word: any control character (a line break, a bare carriage return, a tab, DEL, C1
  /// controls), a double quote or a backslash (systemd reads escapes inside its quotes).
  ///
  /// The check runs on the final text (the absolute path), scalar by scalar, so a CRLF (one
  /// `Character` in Swift) is caught, and a folder named `d" ; /bin/sh "-c" "…` cannot end the
  /// quoted word and add a command. `%`, `$` and `'` are escaped by the quoting itself.
  static func checkWord(_ word: String, naming what: String) throws(InputError) {
    let refused = word.unicodeScalars.first { scalar in
      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\""
        || scalar == "\\"
    }
    guard let refused else { return }
    let hex = String(refused.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    let name =
      switch refused {
      case "\n": "a line break"
      case "\r": "a carriage return"
      case "\"": "a double quote"
      case "\\": "a backslash"
      default: "a control character (\(code))"
      }
    throw InputError(
      "\(what) '\(word)' holds \(name), which a systemd unit or a crontab line cannot carry "
        + "safely; move it to a folder whose path has no control characters, double quotes or "
        + "backslashes")
  }

  /// Reads `--every` (`15m`, `1h` and the like), from 1 minute to 24 hours.
  static func interval(_ text: String) throws -> Int {
    let seconds: Int
    do {
      seconds = try DurationText.parse(text)
    } catch {
      throw InputError("--every: \(error.message)")
    }
    let fitsAnHour = seconds >= 60 && seconds < 3600 && seconds % 60 == 0 && 3600 % seconds == 0
    let fitsADay =
      seconds >= 3600 && seconds <= 86_400 && seconds % 3600 == 0 && 86_400 % seconds == 0
    guard fitsAnHour || fitsADay else {
      throw InputError(
        "--every must divide an hour or a day evenly, such as 5m, 10m, 15m, 30m, 1h, 2h or 24h, not '\(text)'"
      )
    }
    return seconds
  }

  /// `/usr/local/bin/lifelog --db /home/ada/.local/share/lifelog/lifelog.db remind --notify`, each
  /// word quoted for systemd (`%` and `$` doubled, as systemd.service(5) asks).
  var execStart: String {
    ([binary, "--db", database] + job.arguments).map { word in
      "\"" + word.replacing("%", with: "%%").replacing("$", with: "$$") + "\""
    }.joined(separator: " ")
  }

  var serviceFile: String {
    """
    [Unit]
    Description=lifelog \(job.rawValue): \(job.summary)

    [Service]
    Type=oneshot
    ExecStart=\(execStart)

    """
  }

  var timerFile: String {
    """
    [Unit]
    Description=Run lifelog \(job.rawValue) every \(DurationText.format(everySeconds))

    [Timer]
    OnActiveSec=1min
    OnUnitActiveSec=\(everySeconds / 60)min
    AccuracySec=\(everySeconds >= 3600 ? "1min" : "10s")

    [Install]
    WantedBy=timers.target

    """
  }

  /// `*/15 * * * * '/usr/local/bin/lifelog' --db '...' remind`: for crontab -e, each word quoted
  /// for sh and `%` escaped (cron turns a bare one into a newline).
  var crontabLine: String {
    let minutes = everySeconds / 60
    let schedule =
      minutes < 60
      ? (minutes == 1 ? "* * * * *" : "*/\(minutes) * * * *")
      : (minutes == 1440 ? "0 0 * * *" : "0 */\(minutes / 60) * * *")
    // A crontab run has no session bus, so remind prints its line (cron mails it) instead.
    let arguments = job == .remind ? ["remind"] : job.arguments
    let words = ([binary, "--db", database] + arguments).map { word in
      "'" + word.replacing("'", with: "'\\''").replacing("%", with: "\\%") + "'"
    }
    return schedule + " " + words.joined(separator: " ")
  }

  /// Reads the interval back from a timer file this command wrote (`OnUnitActiveSec=15min`).
  static func interval(inTimerFile text: String) -> Int? {
    for line in text.split(separator: "\n") where line.hasPrefix("OnUnitActiveSec=") {
      let value = line.dropFirst("OnUnitActiveSec=".count)
      guard value.hasSuffix("min"), let minutes = Int(value.dropLast(3)),
        (1...1440).contains(minutes)
      else {
        return nil
      }
      return minutes * 60
    }
    return nil
  }

  /// The absolute path of the running binary (`/proc/self/exe`).
  static func runningBinary() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
