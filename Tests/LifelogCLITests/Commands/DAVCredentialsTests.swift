import Foundation
import LifelogTestSupport
import Testing

@testable import LifelogCLI

/// `--password-file` of a WebDAV remote: one trailing line break, as any editor leaves it, is
/// not part of the password; anything else unprintable is refused.
@Suite struct DAVCredentialsTests {
  let folder = TemporaryDirectory()

  func credentials(_ content: String) throws -> String {
    let path = folder.file("password")
    try content.write(toFile: path, atomically: true, encoding: .utf8)
    return try LifelogCommand.RemoteAdd.davCredentials(
      user: "alice", file: path, environment: [:])
  }

  @Test func oneTrailingLineBreakOfAnyKindIsDropped() throws {
    #expect(try credentials("open sesame") == "alice:open sesame")
    #expect(try credentials("open sesame\n") == "alice:open sesame")
    #expect(try credentials("open sesame\r\n") == "alice:open sesame")
    #expect(throws: (any Error).self) { try credentials("open\nsesame\n") }
    #expect(throws: (any Error).self) { try credentials("open sesame\n\n") }
  }
}
