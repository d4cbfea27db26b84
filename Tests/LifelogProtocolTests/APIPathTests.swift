import LifelogProtocol
import Testing

/// ``APIPath``: the paths the client builds, spelled as docs/http-api.md lists them (the server's
/// RouterTests route the same builders back).
@Suite struct APIPathTests {
  @Test func everyPathIsSpelledAsTheAPIDocumentsIt() {
    #expect(APIPath.info == "/v1/info")
    #expect(APIPath.manifest == "/v1/manifest")
    #expect(APIPath.changes == "/v1/changes")
    #expect(APIPath.keys == "/v1/keys")
    #expect(APIPath.keyEnvelope(version: 3) == "/v1/keys/3")
    #expect(APIPath.batches(device: "dev-1") == "/v1/batches/dev-1")
    #expect(APIPath.batch(device: "dev-1", seq: 12) == "/v1/batches/dev-1/12")
    #expect(APIPath.latestSnapshot == "/v1/snapshots/latest")
    #expect(APIPath.snapshot("17-abc") == "/v1/snapshots/17-abc")
  }

  @Test(arguments: ["", ".", "..", "a/b", "a%2Fb", "a_b", "é", String(repeating: "a", count: 129)])
  func whatCannotBeANameInAPathIsRefused(name: String) {
    #expect(!APIPath.isName(name))
  }

  @Test func aUUIDAndTheLongestNameAreNames() {
    #expect(APIPath.isName("dddddddd-0000-4000-8000-000000000001"))
    #expect(APIPath.isName(String(repeating: "a", count: 128)))
  }

  @Test func aCursorTokenIsBoundedAndOfItsAlphabet() {
    #expect(CursorToken.isValid("") && CursorToken.isValid("1201_8f3a-b_120"))
    #expect(!CursorToken.isValid("9&exclude=x") && !CursorToken.isValid("9 "))
    #expect(!CursorToken.isValid(String(repeating: "1", count: CursorToken.maximumLength + 1)))
  }
}
