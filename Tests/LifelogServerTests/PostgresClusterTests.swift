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
}
