import Foundation
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// The web app's files: served without a token, under a policy that lets the page run only its
/// own scripts, never be framed, never send a Referer and never have its types sniffed.
@Suite struct WebAppRouteTests {
  let harness: RouteHarness

  init() throws { harness = try RouteHarness() }

  /// The binary serves each file of Web/ byte for byte as it is now (the compiler embeds them
  /// from Web/: no copy of them is kept in the sources to go stale).
  @Test func everyFileOfTheAppIsServedAsWebHoldsIt() throws {
    let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Web")
    #expect(WebApp.files.count >= 20)
    for (path, _) in WebApp.files {
      let file = try Data(contentsOf: web.appendingPathComponent(String(path.dropFirst())))
      #expect(harness.send("GET", path).body == Array(file), "\(path)")
    }
  }

  @Test func theAppIsServedAtTheRootWithItsSecurityHeaders() throws {
    for (path, type) in [
      ("/", "text/html; charset=utf-8"), ("/app.js", "text/javascript; charset=utf-8"),
      ("/core/sync.js", "text/javascript; charset=utf-8"),
      ("/manifest.webmanifest", "application/manifest+json"), ("/icon.svg", "image/svg+xml"),
      ("/sw.js", "text/javascript; charset=utf-8"),
    ] {
      let answer = harness.send("GET", path)
      #expect(answer.status == 200, "\(path)")
      #expect(answer.header("Content-Type") == type, "\(path)")
      let policy = try #require(answer.header("Content-Security-Policy"))
      #expect(policy.hasPrefix("default-src 'self';"))
      #expect(policy.contains("frame-ancestors 'none'"))
      #expect(!policy.contains("unsafe-inline"))
      #expect(answer.header("Referrer-Policy") == "no-referrer")
      #expect(answer.header("X-Content-Type-Options") == "nosniff")
    }
    #expect(harness.send("GET", "/").text.contains("<script type=\"module\" src=\"/app.js\">"))
    #expect(harness.send("GET", "/").text == harness.send("GET", "/index.html").text)
  }

  @Test func theEncryptionModuleIsServedAsWebAssembly() throws {
    // Built by scripts/web-wasm.sh (make) into .build/wasm, and from there into the binary.
    let answer = harness.send("GET", "/sodium.wasm")
    #expect(answer.status == 200, "build it with 'make wasm'")
    #expect(answer.header("Content-Type") == "application/wasm")
    #expect(answer.body.starts(with: [0x00, 0x61, 0x73, 0x6D]), "the WebAssembly magic")
    #expect(answer.header("Content-Security-Policy")?.contains("'wasm-unsafe-eval'") == true)
  }

  @Test func thePageHoldsNoInlineScript() {
    let page = harness.send("GET", "/").text
    for script in page.split(separator: "<script").dropFirst() {
      #expect(script.hasPrefix(" type=\"module\" src="))
    }
    #expect(
      page.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil,
      "no inline event handlers")
  }

  @Test func otherPathsAreNotFoundAndFilesTakeOnlyReads() {
    #expect(harness.send("GET", "/nothing.js").isError(404, "not_found"))
    #expect(harness.send("GET", "/tools/device.mjs").isError(404, "not_found"))
    #expect(harness.send("GET", "/../Package.swift").isError(404, "not_found"))
    #expect(harness.send("PUT", "/app.js").isError(405, "method_not_allowed"))
    #expect(harness.send("HEAD", "/app.js").status == 200)
  }
}
