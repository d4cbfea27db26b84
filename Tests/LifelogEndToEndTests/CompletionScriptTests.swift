import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// The scripts of `lifelog completion`, loaded into the real shells and asked to complete.
@Suite struct CompletionScriptTests {
  let folder = TemporaryDirectory()
  var database: String { folder.file("lifelog.db") }

  init() throws {
    let created = try LifelogProcess.run(
      ["activity", "add", "brunch", "--kind", "meal"], environment: ["LIFELOG_DB": database])
    try #require(created.exitCode == 0, "\(created)")
  }

  /// Writes `lifelog completion <shell>` to a file and returns its path.
  func script(_ shell: String) throws -> String {
    let result = try LifelogProcess.run(["completion", shell])
    try #require(result.exitCode == 0, "\(result)")
    let path = folder.file("lifelog.\(shell)")
    try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// What bash's `_lifelog` puts in COMPREPLY for a command line (words after the binary; the
  /// last one is being typed), one candidate per line.
  func bashCompletes(_ words: [String]) throws -> [String] {
    let quoted = ([LifelogProcess.binaryPath] + words).map { "'\($0)'" }.joined(separator: " ")
    let program = """
      source '\(try script("bash"))'
      complete -p lifelog >/dev/null || exit 3
      COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count)
      COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
      _lifelog
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try Subprocess.run(
      "bash", ["--norc", "-c", program],
      environment: ["LIFELOG_DB": database, "PATH": "/usr/bin:/bin"])
    try #require(result.status == 0, "bash failed: \(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesCommandsOptionsValuesAndActivityNames() throws {
    #expect(try bashCompletes(["ac"]) == ["activity"])
    #expect(try bashCompletes(["add", "br"]) == ["breakfast", "brunch"])
    #expect(try bashCompletes(["list", "--format", ""]) == ["table", "json", "csv"])
    #expect(try bashCompletes(["add", "snack", "--ki"]) == ["--kind"])
    // compgen agrees with what the function offers for a plain word list.
    let compgen = try Subprocess.run("bash", ["--norc", "-c", "compgen -W 'add activity' -- ac"])
    #expect(compgen.stdout == "activity\n")
  }

  @Test func bashCompletesFileNamesWhereAFileIsExpected() throws {
    FileManager.default.createFile(atPath: folder.file("report-november.html"), contents: Data())
    let prefix = folder.file("report-")
    #expect(
      try bashCompletes(["report", "--output", prefix]) == [folder.file("report-november.html")])
  }

  @Test func zshAndFishScriptsAreValid() throws {
    for shell in ["zsh", "fish"] {
      try #require(Subprocess.exists(shell), "\(shell) is needed (make test installs it)")
      let check = try Subprocess.run(shell, ["-n", try script(shell)])
      #expect(check.status == 0, "\(shell) -n: \(check.stderr)")
    }
  }

  @Test func fishCompletesThroughTheBinary() throws {
    try #require(Subprocess.exists("fish"), "fish is needed (make test installs it)")
    let binaryFolder = URL(fileURLWithPath: LifelogProcess.binaryPath).deletingLastPathComponent()
      .path
    let result = try Subprocess.run(
      "fish",
      ["--no-config", "-c", "source '\(try script("fish"))'; complete -C 'lifelog add br'"],
      environment: [
        "LIFELOG_DB": database, "PATH": "\(binaryFolder):/usr/bin:/bin", "HOME": folder.path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) } == [
        "breakfast", "brunch",
      ])
  }
}
