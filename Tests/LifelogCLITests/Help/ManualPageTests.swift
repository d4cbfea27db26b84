import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `docs/lifelog.1` is what `lifelog __manpage` writes from the command configurations; re-record
/// it with `RECORD_SNAPSHOTS=1` (or `make man`) after changing a command.
@Suite struct ManualPageTests {
  /// Tests/LifelogCLITests/Help/ManualPageTests.swift, four folders down from the repository.
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  let page = CLIFixture().run("__manpage").stdout

  @Test func theCheckedInManualPageIsTheGeneratedOne() {
    assertGoldenFile(page, at: Self.repository.appendingPathComponent("docs/lifelog.1"))
  }

  @Test func everyVisibleCommandHasASectionAndTheHiddenOnesNone() {
    for command in [
      "add", "list", "activity rename", "report meals", "serve user add", "shell", "completion",
    ] {
      #expect(page.contains(".SS \"lifelog \(command)\"\n"), "no section for \(command)")
    }
    #expect(!page.contains("__complete"))
    #expect(!page.contains("__manpage"))
  }

  @Test func noLineStartsWithAStrayControlCharacter() {
    let requests: Set<String> = [
      ".TH", ".SH", ".SS", ".B", ".I", ".TP", ".PP", ".RS", ".RE", ".nf", ".fi", ".br",
    ]
    for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
      let request = String(line.prefix { $0 != " " })
      #expect(requests.contains(request), "unexpected roff request: \(line)")
    }
  }
}

/// `man -l docs/lifelog.1` shows the page without a single warning from groff.
@Suite struct ManualPageRenderingTests {
  @Test func groffRendersThePageWithoutWarnings() throws {
    let groff = ["/usr/bin/groff", "/bin/groff"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    let path = try #require(groff, "groff is needed (make test installs groff-base)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = [
      "-man", "-Tutf8", "-ww",
      ManualPageTests.repository.appendingPathComponent("docs/lifelog.1").path,
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let rendered = AsyncData(output.fileHandleForReading)
    let warnings = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: warnings, as: UTF8.self) == "")
    let text = String(decoding: rendered.wait(), as: UTF8.self)
    #expect(text.contains("lifelog shell"))
  }
}
