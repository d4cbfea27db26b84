import LifelogTestSupport
import Testing

/// The runner every binary test goes through: a child that exits without reading its input must
/// fail no more than that one run (before, the write raised SIGPIPE and ended the whole test
/// process, every suite at once, with signal 13).
@Suite struct LifelogProcessTests {
  @Test func aChildThatNeverReadsItsInputLeavesTheTestProcessAlive() throws {
    // 4 MiB is far more than a pipe holds (64 KiB), so the write is still going on when
    // `--version` has answered and exited, and meets a pipe with no reader.
    let input = String(repeating: "2026-12-02,breakfast,oatmeal\n", count: 150_000)
    for _ in 0..<3 {
      let result = try LifelogProcess.run(["--version"], input: input)
      #expect(result.exitCode == 0, "\(result)")
      #expect(result.stdout.hasPrefix("lifelog "), "\(result)")
    }
  }
}
