import Foundation
import LifelogTestSupport
import Testing

/// `docs/lifelog.1` is what `lifelog __manpage` writes from the command configurations; re-record
/// it with `RECORD_SNAPSHOTS=1` (or `make man`) after changing a command.
@Suite struct ManualPageTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  let page = CLIFixture().run("__manpage").stdout

  @Test func theCheckedInManualPageIsTheGeneratedOne() {
    assertGoldenFile(page, at: Self.repository.appendingPathComponent("docs/lifelog.1"))
  }

  @Test func everyVisibleCommandHasASectionAndTheHiddenOnesNone() {
    for command in ["add", "list", "activity rename", "report meals", "serve user add", "shell", "completion"] {
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
