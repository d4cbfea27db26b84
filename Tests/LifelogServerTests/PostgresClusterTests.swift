import Foundation
import LifelogTestSupport
import Testing

/// The PostgreSQL test cluster's helper errors say why a script failed, even when it printed
/// nothing: an AddressSanitizer run once ended eight tests with "cannot start PostgreSQL: " and
/// nothing after the colon.
@Suite struct PostgresClusterTests {
  @Test func aSilentFailureStillNamesTheCommandAndItsExitStatus() {
    let run = ScriptRun(
      command: "'/bin/sh' 'postgres-cluster.sh' 'start' '42'", status: 1 << 8, systemErrno: 0,
      stdout: "", stderr: "\n")
    #expect(!run.succeeded)
    #expect(
      run.description
        == "'/bin/sh' 'postgres-cluster.sh' 'start' '42': exit status 1; stdout: (empty); stderr: (empty)"
    )
  }

  @Test func aFailureCarriesBothOutputsASignalAndSystemItself() {
    let printed = ScriptRun(
      command: "c", status: 69 << 8, systemErrno: 0, stdout: "/tmp/x 5432\n",
      stderr: "pg_ctl: could not start server\n")
    #expect(
      printed.description
        == "c: exit status 69; stdout: /tmp/x 5432; stderr: pg_ctl: could not start server")
    #expect(
      ScriptRun(command: "c", status: 9, systemErrno: 0, stdout: "", stderr: "").outcome
        == "killed by signal 9")
    #expect(
      ScriptRun(command: "c", status: -1, systemErrno: 10, stdout: "", stderr: "").outcome
        == "system() failed: No child processes")
  }

  /// The cluster holds no descriptor of the process that started it.
  ///
  /// The test run once hung: the cluster was started (with `system()`) while another test thread
  /// read a child's output through a pipe without close-on-exec, PostgreSQL inherited the pipe's
  /// write end, and the reader waited for an end that never came. The script now closes every
  /// descriptor but 0-2 first: a pipe open here reaches its end once this side closes it.
  @Test(.enabled(if: PostgresCluster.isInstalled))
  func theClusterKeepsNoDescriptorOfTheProcessThatStartedIt() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)  // inherited by the script, as a concurrent child's pipe was
    defer { close(ends[0]) }
    let script =
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/postgres-cluster.sh").path
    let output = NSTemporaryDirectory() + "/lifelog-cluster-\(getpid())-\(ends[0]).out"
    defer { unlink(output) }
    let status = system("/bin/sh '\(script)' start \(getpid()) > '\(output)' 2>/dev/null")
    close(ends[1])
    let printed = try String(contentsOfFile: output, encoding: .utf8)
    let folder = try #require(printed.split(separator: " ").first.map(String.init))
    defer { _ = system("/bin/sh '\(script)' stop '\(folder)' >/dev/null 2>&1") }
    #expect(status == 0, "\(printed)")
    // Every write end is closed now, so the read end is at its end at once (never blocks).
    var reader = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
    guard poll(&reader, 1, 5_000) == 1 else {
      Issue.record("a process the script started holds the pipe open")
      return
    }
    var byte: UInt8 = 0
    #expect(read(ends[0], &byte, 1) == 0)
  }
}
