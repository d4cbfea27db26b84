import LifelogCore
import LifelogProtocol
import Testing

/// ``VersionVector``'s JSON, which snapshots carry as `covers` and the server serves back.
@Suite struct VersionVectorTests {
  @Test func aVectorRoundTripsThroughItsSortedJSON() throws {
    let vector = VersionVector(["b-dev": 3, "a-dev": 12, "c": 0])
    #expect(vector.json == #"{"a-dev":12,"b-dev":3,"c":0}"#)
    #expect(try VersionVector(parsing: vector.json) == vector)
    #expect(try VersionVector(parsing: "") == VersionVector())
  }

  @Test(arguments: [#"[1]"#, #"{"a":-1}"#, #"{"a":2147483648}"#, #"{"a":1.5}"#, #"{"a":"1"}"#])
  func whatIsNotAVectorOfWholeSeqsIsRefused(text: String) {
    #expect(throws: InputError.self) { try VersionVector(parsing: text) }
  }
}
