import LifelogCore
import LifelogProtocol
import Testing

@testable import LifelogServer

@Suite struct ServerCursorTests {
  @Test func tokensRoundTrip() throws {
    #expect(try ServerCursor(token: "") == ServerCursor())
    #expect(try ServerCursor(token: "1204") == ServerCursor(position: 1204))
    let cursor = ServerCursor(position: 7, floor: VersionVector(["b-2": 3, "a-1": 12]))
    #expect(cursor.token == "7_a-1_12_b-2_3")
    #expect(try ServerCursor(token: cursor.token) == cursor)
  }

  @Test(arguments: [
    "x", "-1", "1_", "1_dev", "1_dev_0", "1_dev_x", "1_a.b_2", "1_dev_2_", "12 ", "1__2",
    // Outside the grammar docs/openapi.yaml states, though a number parser would take them.
    "+5", "007", "-0", "1_dev_+2", "1_dev_02", "1234567890123456789", "1_dev_1234567890123456",
  ])
  func tokensNotMadeHereAreRefused(token: String) {
    #expect(throws: HTTPError.self) { try ServerCursor(token: token) }
  }

  @Test func aFloorDeviceThatIsNotADeviceIdIsLeftOutSoTheTokenStillReads() throws {
    // As a snapshot stored before covers were checked could make it: `a_b` would split the token.
    let cursor = ServerCursor(position: 9, floor: VersionVector(["a_b": 5, "dev-1": 2, "": 4]))
    #expect(cursor.token == "9_dev-1_2")
    #expect(
      try ServerCursor(token: cursor.token)
        == ServerCursor(position: 9, floor: VersionVector(["dev-1": 2])))
  }
}

extension ServerCursorTests {
  @Test func aFloorSeqPastTheLargestSeqIsLeftOutSoTheTokenStillReads() throws {
    // As a snapshot stored before covers seqs were bounded could make it: 16 digits the parser refuses.
    let cursor = ServerCursor(
      position: 3, floor: VersionVector(["dev-1": 1_000_000_000_000_000, "dev-2": 7]))
    #expect(cursor.token == "3_dev-2_7")
    #expect(try ServerCursor(token: cursor.token).floor == VersionVector(["dev-2": 7]))
  }

  @Test func aSnapshotCoveringASeqPastTheLargestIsRefusedWhenRead() throws {
    // A forged snapshot's covers would otherwise become every later cursor of the account.
    #expect(throws: InputError.self) {
      try VersionVector(parsing: #"{"dev-1":1000000000000000}"#)
    }
    #expect(throws: InputError.self) { try VersionVector(parsing: #"{"dev-1":2147483648}"#) }
    #expect(try VersionVector(parsing: #"{"dev-1":2147483647}"#)["dev-1"] == 2_147_483_647)
  }
}
