import Testing

@testable import LifelogServer

/// The request value looks headers and query arguments up as libmicrohttpd did when it was a
/// view over the C request (MHD_lookup_connection_value): first match, any case.
@Suite struct HTTPRequestTests {
  let request = HTTPRequest(
    method: "GET", path: "/v1/changes",
    headers: [("Content-Type", "a"), ("X-Ü", "b"), ("content-type", "c")],
    queryArguments: [("meta", nil), ("Limit", "5"), ("limit", "6"), ("meta", "1"), ("e", "")])

  @Test func aHeaderIsTheFirstOfItsNameInAnyCase() {
    #expect(request.header("CONTENT-TYPE") == "a")
    #expect(request.header("x-ü") == nil, "only ASCII letters fold")
    #expect(request.header("X-Ü") == "b")
    #expect(request.header("Content") == nil)
  }

  @Test func aQueryArgumentIsTheFirstOfItsNameAndNilWithoutAValue() {
    #expect(request.query("LIMIT") == "5")
    #expect(request.query("meta") == nil, "the first 'meta' has no '='")
    #expect(request.query("e") == "")
    #expect(request.query("missing") == nil)
  }
}
