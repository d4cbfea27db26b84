import LifelogCore
import LifelogProtocol
import Testing

/// The listings server and client share (`GET /v1/shares`, `GET /v1/devices`): what the server
/// encodes, the client reads back whole, and a listing that lies is refused, never trapped on.
@Suite struct ListBodyTests {
  static func bytes(_ object: JSONObjectWriter) -> [UInt8] { Array((object.result + "\n").utf8) }

  static let shares = [
    ShareSummary(
      id: "s1", from: "2026-11-01", to: "2026-11-30", created: 1_780_000_000_000,
      expires: 1_781_000_000_000, opened: 2, lastOpened: 1_780_500_000_000, state: "active",
      hasPasscode: true),
    ShareSummary(
      id: "s2", from: "2026-10-01", to: "2026-10-31", created: 1_779_000_000_000,
      expires: 1_779_500_000_000, opened: 0, lastOpened: nil, state: "expired",
      hasPasscode: false),
  ]

  @Test(arguments: [[], shares])
  func aShareListRoundTrips(_ shares: [ShareSummary]) throws {
    let body = ShareListBody(shares: shares)
    #expect(try ShareListBody(parsing: Self.bytes(body.encoded)) == body)
  }

  @Test func aShareListIsSpelledAsDocumented() {
    #expect(
      ShareListBody(shares: [Self.shares[1]]).encoded.result
        == #"{"shares":[{"id":"s2","from":"2026-10-01","to":"2026-10-31","created":1779000000000,"#
        + #""expires":1779500000000,"opened":0,"lastOpened":null,"state":"expired","passcode":false}]}"#
    )
  }

  @Test(arguments: [
    "", "[]", #"{"shares":{}}"#, #"{"shares":[{"id":"s"}]}"#,
    #"{"shares":[{"id":"s","from":"a","to":"b","created":"1","expires":2}]}"#,
    #"{"shares":[{"id":"s","from":"a","to":"b","created":1,"expires":2,"opened":-1}]}"#,
    #"{"shares":[{"id":"s","from":"a","to":"b","created":1,"expires":2,"opened":1e300}]}"#,
  ])
  func aShareListWithoutItsMembersIsRefused(body: String) {
    #expect(throws: AnswerBodyError("share list")) {
      try ShareListBody(parsing: Array(body.utf8))
    }
  }

  @Test func aDeviceListRoundTrips() throws {
    let body = DeviceListBody(devices: [
      DeviceSummary(name: "phone", created: 1_780_000_000_000, lastUsed: 1_780_000_100_000),
      DeviceSummary(name: "tablet", created: 1_780_000_000_001, lastUsed: nil),
    ])
    #expect(try DeviceListBody(parsing: Self.bytes(body.encoded)) == body)
    #expect(
      try DeviceListBody(parsing: Self.bytes(DeviceListBody(devices: []).encoded)).devices == [])
    #expect(
      DeviceListBody(devices: [body.devices[1]]).encoded.result
        == #"{"devices":[{"name":"tablet","created":1780000000001,"lastUsed":null}]}"#)
  }

  @Test(arguments: [
    "", #"{"devices":"phone"}"#, #"{"devices":[{"name":"p"}]}"#,
    #"{"devices":[{"created":1}]}"#, #"{"devices":[{"name":1,"created":1}]}"#,
  ])
  func aDeviceListWithoutItsMembersIsRefused(body: String) {
    #expect(throws: AnswerBodyError("device list")) {
      try DeviceListBody(parsing: Array(body.utf8))
    }
  }
}
