import LifelogCore
import Testing

@testable import LifelogServer

/// The server's SHA-256 (OpenSSL's libcrypto when it loads) gives the portable Swift code's
/// digest for every length around the block and padding boundaries and for a push-sized body, so
/// a batch verifies on the server exactly when it verifies on a client.
@Suite struct ServerDigestTests {
  @Test func libcryptoIsUsedOnThisMachine() {
    // The Makefile's deps bring libssl3 (libcurl4-openssl-dev needs it); without it the Swift code
    // hashes.
    #expect(ServerDigest.usesLibcrypto)
  }

  @Test func theKnownAnswers() {
    #expect(
      ServerDigest.hexDigest([])
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      ServerDigest.hexDigest(ArraySlice("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test func everyLengthHashesAsTheSwiftCodeDoes() {
    var state: UInt64 = 0x5EED_D16E
    print("ServerDigestTests seed 0x5EEDD16E")
    var bytes: [UInt8] = []
    for _ in 0..<21_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      bytes.append(UInt8(truncatingIfNeeded: state >> 33))
    }
    for length in Array(0...200) + [1_000, 4_096, 20_999, 21_000] {
      // A slice that does not start at 0, as the trailer check hands over.
      let slice = bytes[(bytes.count - length)...]
      #expect(
        ServerDigest.hexDigest(slice) == SHA256.hexDigest(Array(slice)), "length \(length)")
    }
  }
}
