import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// The web app in Debian's chromium at 360×640, driven by selenium (Web/test/browser_test.py):
/// paired from a real `lifelog pair` link, a tap logs, `lifelog list` sees it after syncs; offline
/// (DevTools network off and the server stopped) two more are logged, the page reloads from its
/// service worker, and both reach the command line once back online.
@Suite struct WebBrowserTests {
  let folder = TemporaryDirectory(prefix: "lifelog-web-browser")

  /// Encrypted, the page seals and opens in WebAssembly, and the server's files hold no note.
  @Test(arguments: [false, true]) func aPhoneSizedBrowserPairsLogsOfflineAndSyncs(
    encrypted: Bool
  )
    throws
  {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let python = repository.appendingPathComponent(".build/venv/bin/python").path
    let chromium = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    #expect(
      chromium && FileManager.default.isExecutableFile(atPath: python),
      "needs Debian's chromium and chromium-driver and selenium in .build/venv (make test-deps)")
    guard chromium else { return }
    let output = try Subprocess.run(
      python,
      [
        repository.appendingPathComponent("Web/test/browser_test.py").path,
        "--lifelog", LifelogProcess.binaryPath, "--work", folder.file(encrypted ? "e" : "p"),
      ] + (encrypted ? ["--encrypted"] : []),
      environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
    #expect(
      output.status == 0 && output.stdout.contains("browser test passed"),
      "\(output.stdout)\n\(output.stderr)")
  }
}
