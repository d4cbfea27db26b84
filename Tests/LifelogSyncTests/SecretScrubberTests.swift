import Testing

@testable import LifelogSync

/// When a server's words count as quoting the credentials (``SecretScrubber``).
@Suite struct SecretScrubberTests {
  let token = SecretScrubber(secrets: ["llt_0123456789"])

  @Test func anyPieceOfEightBytesOfALongSecretIsFound() {
    #expect(token.reveals("bad token xllt_0123456789y"))
    #expect(token.reveals("bad token llt_012345678"))
    #expect(token.reveals("…23456789"))
    #expect(!token.reveals("bad token 456789"))
  }

  @Test func theBase64AndPercentFormsOfAPasswordAreFound() {
    let password = SecretScrubber(secrets: ["p@ss word 2026"], user: "alice")
    #expect(password.reveals("Authorization: Basic YWxpY2U6cEBzcyB3b3JkIDIwMjY="))
    #expect(password.reveals("Location: https://alice:p%40ss%20word@example.org/"))
    #expect(password.reveals("echo cEBzcyB3b3JkIDIw"))
    #expect(!password.reveals("Authorization: Basic YWxpY2U6"))
  }

  @Test func aShortSecretIsFoundOnlyAsAWordOfItsOwn() {
    #expect(!SecretScrubber(secrets: ["t"]).reveals("token refused"))
    #expect(!SecretScrubber(secrets: ["abc"]).reveals("abcdef"))
    #expect(SecretScrubber(secrets: ["t"]).reveals("token 't' refused"))
    #expect(SecretScrubber(secrets: ["abc"]).reveals("abc"))
    #expect(SecretScrubber(secrets: ["pw!"]).reveals("user=alice password=pw!"))
    #expect(!SecretScrubber(secrets: ["abcdefg"]).reveals("abc"))
  }

  @Test func whatIsShownIsCheckedWholeAndAgainAfterFiltering() {
    let padded = Array(String(repeating: "x", count: 100).utf8) + Array("llt_0123456789".utf8)
    #expect(token.shown(padded, limit: 120) == nil, "the cut would show 20 bytes of it")
    var interleaved: [UInt8] = []
    for byte in "llt_0123456789".utf8 { interleaved += [byte, 0xC3] }
    #expect(!token.reveals(interleaved))
    #expect(token.shown(interleaved, limit: 120) == nil, "dropping the non-ASCII joins it")
    #expect(token.shown(Array("not found".utf8), limit: 120) == "not found")
  }

  @Test func scrubbingReplacesEveryStretchOfASecret() {
    #expect(
      token.scrubbed("failed: token llt_0123456789 and 0123456789 refused")
        == "failed: token [withheld] and [withheld] refused")
    #expect(SecretScrubber.none.scrubbed("anything") == "anything")
  }
}
