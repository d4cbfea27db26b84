import LifelogCore
import Testing

@testable import LifelogServer

/// Share passcodes are kept as PBKDF2-HMAC-SHA256 under a random salt; libcrypto's derivation and
/// the Swift one agree with RFC 7914's vectors.
@Suite struct SharePasscodeTests {
  @Test func pbkdf2MatchesTheRFCVectorsWithAndWithoutLibcrypto() {
    let vectors: [(password: String, salt: String, iterations: Int, key: String)] = [
      ("passwd", "salt", 1, "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"),
      (
        "Password", "NaCl", 80000,
        "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
      ),
      (
        String(repeating: "x", count: 100), "salt", 3,
        "59bfa49750dd5462ce38370a1e7abe0736ff334cf1c2f0d84f23a03435d660d1"
      ),
    ]
    for vector in vectors {
      let password = Array(vector.password.utf8)
      let salt = Array(vector.salt.utf8)
      #expect(
        UUIDText.hex(SharePasscode.derive(password, salt: salt, iterations: vector.iterations))
          == vector.key)
      // The Swift derivation in a debug build takes seconds for 80,000 rounds: the short ones.
      guard vector.iterations < 100 else { continue }
      #expect(
        UUIDText.hex(
          PBKDF2.sha256(password: password, salt: salt, iterations: vector.iterations, length: 32))
          == vector.key)
    }
  }

  @Test func aPasscodeIsSaltedAndSlowAndOnlyItMatches() {
    let first = SharePasscode.hash(id: "s-1", passcode: "1234")
    let second = SharePasscode.hash(id: "s-1", passcode: "1234")
    #expect(first.hasPrefix("pbkdf2-sha256$\(SharePasscode.iterations)$"))
    #expect(first != second)
    #expect(!first.contains(SharePasscode.legacyDigest(id: "s-1", passcode: "1234")))
    #expect(SharePasscode.matches(first, id: "s-1", passcode: "1234"))
    #expect(!SharePasscode.matches(first, id: "s-1", passcode: "1235"))
    #expect(!SharePasscode.matches(first, id: "s-2", passcode: "1234"))
    for broken in [
      "pbkdf2-sha256$", "pbkdf2-sha256$0$00$" + String(repeating: "0", count: 64),
      "pbkdf2-sha256$99999999999$00$00", "pbkdf2-sha256$1$zz$00", "", "pbkdf2-sha256$1$00$0",
    ] {
      #expect(!SharePasscode.matches(broken, id: "s-1", passcode: ""))
    }
  }
}
