import Testing

@testable import LifelogCLI

/// `lifelog serve` warns when it serves the web app over plain HTTP beyond this machine.
@Suite struct ServeWarningTests {
  @Test(arguments: ["0.0.0.0", "192.168.1.20", "::", "sync.example.org"])
  func plainHTTPToOtherMachinesIsWarnedAbout(host: String) throws {
    let warning = try #require(LifelogCommand.Serve.plainHTTPWarning(host: host, scheme: "http"))
    #expect(warning.contains("plain http on \(host)"))
    #expect(warning.contains("--tls-cert") && warning.contains("docs/deploy.md"))
  }

  @Test(arguments: ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
  func loopbackIsNotWarnedAbout(host: String) {
    #expect(LifelogCommand.Serve.plainHTTPWarning(host: host, scheme: "http") == nil)
  }

  @Test func tlsIsNotWarnedAbout() {
    #expect(LifelogCommand.Serve.plainHTTPWarning(host: "0.0.0.0", scheme: "https") == nil)
  }
}
