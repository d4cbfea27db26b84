import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogSync

/// ``RemoteCredentials``: which credentials each remote kind takes, where each comes from, and
/// the kept form of a WebDAV account that ``RemoteAddress`` reads back.
@Suite struct RemoteCredentialsTests {
  let folder = TemporaryDirectory()

  func file(_ content: String, named name: String = "secret") throws -> String {
    let path = folder.file(name)
    try content.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func eachAddressHasItsKind() {
    #expect(RemoteCredentials.Kind(url: "/media/usb/lifelog") == .none)
    #expect(RemoteCredentials.Kind(url: "file:///media/usb") == .none)
    #expect(RemoteCredentials.Kind(url: "http://127.0.0.1:8787") == .token)
    #expect(RemoteCredentials.Kind(url: "https://sync.example.org") == .token)
    #expect(RemoteCredentials.Kind(url: "davs://cloud.example.org/dav") == .account)
    #expect(RemoteCredentials.Kind(url: "dav://nas.local/dav") == .account)
  }

  @Test func anOptionOfAnotherKindIsMisplaced() {
    let token = RemoteCredentials.Given(tokenFile: "t")
    let account = RemoteCredentials.Given(user: "alice", passwordFile: "p")
    #expect(RemoteCredentials.misplacedOption(token, url: "https://h") == nil)
    #expect(RemoteCredentials.misplacedOption(account, url: "davs://h/p") == nil)
    #expect(
      RemoteCredentials.misplacedOption(token, url: "davs://h/p")?.hasPrefix("--token-file")
        == true)
    #expect(
      RemoteCredentials.misplacedOption(account, url: "https://h")?.hasPrefix("--user") == true)
    #expect(
      RemoteCredentials.misplacedOption(token, url: "/media/usb")
        == "--token-file is for server (http/https) remotes only")
    #expect(RemoteCredentials.misplacedOption(.init(), url: "/media/usb") == nil)
  }

  @Test func aFolderKeepsNothing() throws {
    #expect(
      try RemoteCredentials.kept(.init(environment: ["LIFELOG_TOKEN": "x"]), url: "/a") == nil)
  }

  @Test func aServerTokenComesFromTheFileElseTheEnvironment() throws {
    let path = try file("llt_abc\n")
    let fromFile = RemoteCredentials.Given(
      tokenFile: path, environment: ["LIFELOG_TOKEN": "llt_env"])
    #expect(try RemoteCredentials.kept(fromFile, url: "https://h") == "llt_abc")
    let fromEnvironment = RemoteCredentials.Given(environment: ["LIFELOG_TOKEN": "llt_env"])
    #expect(try RemoteCredentials.kept(fromEnvironment, url: "https://h") == "llt_env")
    #expect(throws: InputError.self) { try RemoteCredentials.kept(.init(), url: "https://h") }
    let spaced = RemoteCredentials.Given(tokenFile: try file("llt a b", named: "spaced"))
    #expect(throws: InputError.self) { try RemoteCredentials.kept(spaced, url: "https://h") }
  }

  @Test func oneTrailingLineBreakOfAnyKindIsDroppedFromAPasswordFile() throws {
    func kept(_ content: String) throws -> String? {
      try RemoteCredentials.kept(
        .init(user: "alice", passwordFile: try file(content)), url: "davs://h/p")
    }
    #expect(try kept("open sesame") == "alice:open sesame")
    #expect(try kept("open sesame\n") == "alice:open sesame")
    #expect(try kept("open sesame\r\n") == "alice:open sesame")
    #expect(throws: InputError.self) { try kept("open\nsesame\n") }
    #expect(throws: InputError.self) { try kept("open sesame\n\n") }
  }

  @Test func aUserNameWithAColonOrNoneIsRefused() throws {
    let environment = ["LIFELOG_DAV_PASSWORD": "pw"]
    for user in [nil, "", "al:ice", "a\u{7}b", String(repeating: "a", count: 257)] {
      #expect(throws: InputError.self) {
        try RemoteCredentials.kept(.init(user: user, environment: environment), url: "davs://h/p")
      }
    }
    #expect(
      try RemoteCredentials.kept(.init(user: "alice", environment: environment), url: "davs://h/p")
        == "alice:pw")
  }

  @Test func theKeptAccountReadsBackWithColonsInThePassword() throws {
    let account = RemoteCredentials.Account(user: "alice", password: "a:b::c")
    #expect(account.kept == "alice:a:b::c")
    #expect(RemoteCredentials.Account(kept: account.kept) == account)
    #expect(RemoteCredentials.Account(kept: "no colon") == nil)
  }

  @Test func aWebDAVAddressWithoutAKeptAccountIsRefused() {
    #expect(throws: InputError.self) {
      try RemoteAddress.open("davs://h/p", token: "nocolon", deadline: Deadline(seconds: 1))
    }
  }
}
