import Testing

@testable import LifelogSync

/// When a server's words are withheld because they quote the credentials (`HTTPTransport.quotes`).
@Suite struct SecretQuoteTests {
  @Test func aLongSecretIsFoundAnywhere() {
    #expect(HTTPTransport.quotes("llt_0123456789", in: "bad token xllt_0123456789y"))
    #expect(!HTTPTransport.quotes("llt_0123456789", in: "bad token llt_012345678"))
  }

  @Test func aShortSecretIsFoundOnlyAsAWordOfItsOwn() {
    #expect(!HTTPTransport.quotes("t", in: "token refused"))
    #expect(!HTTPTransport.quotes("abc", in: "abcdef"))
    #expect(HTTPTransport.quotes("t", in: "token 't' refused"))
    #expect(HTTPTransport.quotes("abc", in: "abc"))
    #expect(HTTPTransport.quotes("pw!", in: "user=alice password=pw!"))
    #expect(!HTTPTransport.quotes("abcdefg", in: "abc"))
  }
}
