import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `due`, `remind` and `timer` through the real binary, as a prompt, cron or systemd runs them.
@Suite struct RhythmBinaryTests {
  let folder = TemporaryDirectory()

  func environment(_ now: String) -> [String: String] {
    ["LIFELOG_DB": folder.file("lifelog.db"), "TZ": "Europe/Warsaw", "LIFELOG_NOW": now]
  }

  func run(_ arguments: [String], at now: String) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment(now))
  }

  @Test func dueShortAndRemindAsCronRunsThem() throws {
    #expect(
      try run(["add", "lunch", "soup", "--at", "12:00"], at: "2026-12-02T12:00:00+01:00").exitCode
        == 0)
    #expect(
      try run(["settings", "set", "remindBeforeMinutes", "10"], at: "2026-12-02T12:00:00+01:00")
        .exitCode == 0)
    #expect(try run(["due", "--short"], at: "2026-12-02T13:20:00+01:00").stdout == "1h40m\n")
    #expect(try run(["due", "--short"], at: "2026-12-02T15:25:00+01:00").stdout == "+25m\n")
    let minutes = ["14:49", "14:50", "14:51", "15:30"].map {
      try? run(["remind"], at: "2026-12-02T\($0):00+01:00")
    }
    #expect(minutes.map { $0?.exitCode } == [0, 0, 0, 0])
    #expect(
      minutes.map { $0?.stdout ?? "?" } == [
        "", "A meal is due at Wed 2026-12-02 15:00, in 10m: the last was lunch 2h50m ago\n", "", "",
      ])
  }

  @Test func twoRemindsAtTheSameMomentRemindOnce() throws {
    #expect(
      try run(["add", "lunch", "--at", "12:00"], at: "2026-12-02T12:00:00+01:00").exitCode == 0)
    for round in 0..<5 {
      // A new gap each round: a later meal, and both runs started together past its due time.
      let hour = 13 + round
      if round > 0 {
        #expect(
          try run(["add", "snack", "--at", "\(hour):00"], at: "2026-12-02T\(hour):00:00+01:00")
            .exitCode == 0)
      }
      let now = "2026-12-02T\(hour + 3):01:00+01:00"
      let processes = (0..<2).map { _ in Self.start(["remind"], environment: environment(now)) }
      let outputs = try processes.map { try Self.finish($0) }
      #expect(outputs.filter { !$0.isEmpty }.count == 1, "round \(round): \(outputs)")
    }
  }

  @Test func timerInstallWithTheRealBinaryWritesUnitsSystemdAccepts() throws {
    let bin = folder.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try ExecutableScript.create("#!/bin/sh\nexit 0\n", at: bin + "/systemctl")
    var environment = environment("2026-12-02T12:00:00+01:00")
    environment["PATH"] = bin + ":/usr/bin:/bin"
    environment["XDG_CONFIG_HOME"] = folder.file("config")
    let result = try LifelogProcess.run(["timer", "install", "remind"], environment: environment)
    #expect(result.exitCode == 0, "\(result)")
    let units = folder.file("config/systemd/user")
    let service = try String(contentsOfFile: units + "/lifelog-remind.service", encoding: .utf8)
    #expect(
      service.contains("ExecStart=\"\(LifelogProcess.binaryPath)\" ")
        || service.contains("/lifelog\" \"--db\""))
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
      print(
        "RhythmBinaryTests: skipping 'systemd-analyze verify': /usr/bin/systemd-analyze is not installed"
      )
      return
    }
    let verify = Process()
    verify.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
    verify.arguments = [
      "verify", units + "/lifelog-remind.timer", units + "/lifelog-remind.service",
    ]
    let pipe = Pipe()
    verify.standardOutput = pipe
    verify.standardError = pipe
    try verify.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    verify.waitUntilExit()
    #expect(verify.terminationStatus == 0 && output.isEmpty, "\(output)")
  }

  /// `systemctl --user enable` failing (a user manager that refuses the unit): the install fails
  /// with exit 69 naming systemctl's reason, and leaves no unit files behind, while a unit that
  /// was installed before is left as it was.
  @Test func timerInstallRemovesTheUnitsItWroteWhenEnableFails() throws {
    let bin = folder.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let script = """
      #!/bin/sh
      case "$2" in enable) echo "Failed to enable unit: Access denied" >&2; exit 1 ;; esac
      exit 0

      """
    try ExecutableScript.create(script, at: bin + "/systemctl")
    var environment = environment("2026-12-02T12:00:00+01:00")
    environment["PATH"] = bin + ":/usr/bin:/bin"
    environment["XDG_CONFIG_HOME"] = folder.file("config")
    let units = folder.file("config/systemd/user")
    try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
    let earlier = "[Timer]\nOnUnitActiveSec=1800\n"
    try earlier.write(toFile: units + "/lifelog-sync.timer", atomically: true, encoding: .utf8)

    for job in ["remind", "sync"] {
      let result = try LifelogProcess.run(["timer", "install", job], environment: environment)
      #expect(result.exitCode == 69, "\(result)")
      #expect(result.stderr.contains("Access denied"), "\(result)")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: units).sorted()
    #expect(left == ["lifelog-sync.timer"], "\(left)")
    #expect(
      try String(contentsOfFile: units + "/lifelog-sync.timer", encoding: .utf8) == earlier)
  }

  /// A timer or crontab line installed before the first entry: `remind` says nothing, exits 0
  /// and creates nothing, whether or not the log's folder exists yet.
  @Test(arguments: ["lifelog.db", "missing/lifelog.db"])
  func remindWithNoLogYetIsSilentAndCreatesNothing(_ name: String) throws {
    let result = try LifelogProcess.run(
      ["remind", "--notify"],
      environment: ["LIFELOG_DB": folder.file(name), "LIFELOG_NOW": "2026-12-02T12:00:00+01:00"])
    #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  /// The first thing a new user may try: `last` on an empty log says how to begin (exit 65, a
  /// data error, as every `last`/`-N` past the oldest entry).
  @Test(arguments: [["show", "last"], ["edit", "last", "--note", "oats"], ["delete", "-2"]])
  func lastOnAnEmptyLogSaysHowToBegin(_ arguments: [String]) throws {
    let result = try run(arguments, at: "2026-12-02T12:00:00+01:00")
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stderr
        == "Error: There are no entries yet; add one first, as in 'lifelog add breakfast'\n",
      "\(result)")
  }

  static func start(_ arguments: [String], environment: [String: String]) -> (Process, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: LifelogProcess.binaryPath)
    process.arguments = arguments
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()].merging(
      environment
    ) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try? process.run()
    return (process, pipe)
  }

  static func finish(_ running: (Process, Pipe)) throws -> String {
    let output = running.1.fileHandleForReading.readDataToEndOfFile()
    running.0.waitUntilExit()
    #expect(running.0.terminationStatus == 0)
    return String(decoding: output, as: UTF8.self)
  }
}
