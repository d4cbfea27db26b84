import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// The token-free routes that reach the store are limited per client address, counted from the
/// socket's real peer address by the real `lifelog serve` (loopback takes all of 127/8).
@Suite struct AddressRateLimitTests {
  let folder = TemporaryDirectory(prefix: "lifelog-address-limit")

  func status(port: Int, from address: String, _ request: String) throws -> String {
    let connection = try RawHTTPConnection(port: port, from: address)
    try connection.send(Array(request.utf8))
    let answer = try connection.readResponse()
    return String(answer.prefix(12))
  }

  @Test func oneAddressFloodingShareContentGets429AndOthersAreAnswered() throws {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    let request = "GET /v1/shares/no-such-share/content HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    // 20 at once, then one a second: sent one after another, a 429 comes after at least 20
    // answers (more when the machine is slow enough for tokens to come back meanwhile).
    var answers: [String] = []
    while answers.count < 200, answers.last != "HTTP/1.1 429" {
      answers.append(try status(port: server.port, from: "127.0.0.5", request))
    }
    #expect(answers.last == "HTTP/1.1 429", "\(answers)")
    #expect(
      answers.dropLast().allSatisfy { $0 == "HTTP/1.1 404" } && answers.count > 20, "\(answers)")
    #expect(try status(port: server.port, from: "127.0.0.6", request) == "HTTP/1.1 404")
  }
}
