import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// ``SecretToken`` and the user tokens the server issues: each new, random and shown once; the
/// store keeps only its hash, and a request carrying it finds its user.
@Suite struct SecretTokenTests {
  @Test func aTokenIsItsPrefixAnd64HexDigitsAndNeverRepeats() {
    let tokens = (0..<50).map { _ in SecretToken.make(prefix: SecretToken.userPrefix) }
    for token in tokens {
      #expect(token.hasPrefix("llt_"))
      #expect(token.utf8.count == 4 + 64)
      #expect(token.dropFirst(4).allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }
    #expect(Set(tokens).count == tokens.count)
  }

  @Test func theHashIsTheSHA256OfTheTokensText() {
    #expect(SecretToken.hash("llt_abc") == SHA256.hexDigest(Array("llt_abc".utf8)))
  }

  @Test func anAddedUserIsFoundByTheHashOfTheTokenReturnedAndTheTokenIsNotKept() throws {
    let store = try SQLiteServerStore(path: ":memory:")
    let token = try store.addUser(named: "alice")
    #expect(token.hasPrefix(SecretToken.userPrefix))
    #expect(try store.user(tokenSHA256: SecretToken.hash(token))?.name == "alice")
    #expect(try store.user(tokenSHA256: token) == nil)
  }

  @Test func aReplacedTokenStopsWorkingAndTheNewOneWorks() throws {
    let store = try SQLiteServerStore(path: ":memory:")
    let old = try store.addUser(named: "alice")
    let new = try store.replaceToken(ofUser: "alice")
    #expect(new != old)
    #expect(try store.user(tokenSHA256: SecretToken.hash(old)) == nil)
    #expect(try store.user(tokenSHA256: SecretToken.hash(new))?.name == "alice")
  }

  @Test func aTakenOrMalformedNameGetsNoToken() throws {
    let store = try SQLiteServerStore(path: ":memory:")
    _ = try store.addUser(named: "alice")
    #expect(throws: InputError.self) { try store.addUser(named: "alice") }
    #expect(throws: InputError.self) { try store.addUser(named: "../x") }
  }
}
