import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// The server takes in only numbers in their ``WireRange``, the ranges every client checks: it
/// never stores what a client would refuse (docs/security.md, "One set of limits").
@Suite struct WireRangeRouteTests {
  let harness: RouteHarness
  let token: String
  let device = "dev-1"

  init() throws {
    harness = try RouteHarness()
    token = try harness.addUser("alice")
  }

  func put(_ seq: Int) -> RouteAnswer {
    harness.send(
      "PUT", "/v1/batches/\(device)/\(seq)", token: token,
      body: SampleBatches.batch(device: device, seq: seq))
  }

  @Test func aSeqPastTheClientsRangeIsRefusedAndNothingIsStored() {
    for seq in [999_999_999_999_999, Int(Int32.max) + 1] {
      let refused = put(seq)
      #expect(refused.isError(400, "bad_request"), "\(seq): \(refused.status) \(refused.text)")
      #expect(
        refused.errorMessage
          == "A batch seq is a whole number from 1 to 2147483647, without leading zeros")
    }
    let count = harness.send("GET", "/v1/batches/\(device)", token: token)
    #expect(count.json["batches"] as? Int == 0, "\(count.text)")
    // The last seq of the range is taken, and a client reads it back.
    #expect(put(Int(Int32.max)).status == 201)
    let page = harness.send("GET", "/v1/changes", token: token)
    let body = try? ChangesBody(parsing: page.body)
    #expect(body?.items.map(\.seq) == [Int(Int32.max)])
    #expect(body?.items.first?.refusal == nil)
  }

  @Test func everyNumberInAPathOrQueryIsCheckedAgainstItsRange() {
    let through = harness.send(
      "DELETE", "/v1/batches/\(device)?through=2147483648", token: token)
    #expect(through.isError(400, "bad_request"), "\(through.text)")
    let keys = harness.send("PUT", "/v1/keys/2147483648", token: token, body: [1, 2, 3])
    #expect(keys.isError(400, "bad_request"), "\(keys.text)")
    #expect(
      keys.errorMessage
        == "A key envelope version is a whole number from 1 to 2147483647, without leading zeros")
    let floor = harness.send(
      "GET", "/v1/changes?after=0_\(UUIDText.random())_2147483648", token: token)
    #expect(floor.isError(400, "bad_request"), "\(floor.text)")
  }
}
