import Testing

@testable import LifelogServer

/// What `--max-connections-per-address` counts a client as: an IPv4 address whole, an IPv6 one by
/// its /64, since one host usually owns a whole /64 and could otherwise open its share from each
/// of its addresses (docs/security.md, "Slow clients").
@Suite struct ClientAddressTests {
  @Test func anIPv6ClientIsCountedByItsSlash64() throws {
    let one = try #require(HTTPListener.countedAs("2001:db8:1:2::1"))
    #expect(HTTPListener.countedAs("2001:db8:1:2:ffff:eeee:dddd:9") == one)
    #expect(HTTPListener.countedAs("2001:db8:1:3::1") != one)
    #expect(
      HTTPListener.countedAs("2001:db8:1:2::1").map { Array($0[8...]) }
        == Array(repeating: 0, count: 8))
  }

  @Test func anIPv4ClientIsCountedWholeAsItsMappedForm() throws {
    let two = try #require(HTTPListener.countedAs("127.0.0.2"))
    #expect(HTTPListener.countedAs("127.0.0.3") != two)
    #expect(HTTPListener.countedAs("::ffff:127.0.0.2") == two)
    #expect(HTTPListener.countedAs("::ffff:127.0.0.3") != two)
    #expect(HTTPListener.countedAs("not an address") == nil)
  }
}
