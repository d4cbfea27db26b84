@preconcurrency import Glibc

/// The `lifelog-bench` program: checks its argument, runs the suite in a temporary folder, and
/// prints the figures.
///
/// Figures go to stdout as JSON lines; progress and errors go to stderr. The exit code is 0 when
/// every figure was measured (whether or not it met its target), 64 for a bad command line, and 1
/// when a measurement could not be made (a `lifelog` run failed, or its output was wrong).
enum BenchmarkCommand {
  static let usage =
    "Usage: lifelog-bench <path to a release build of lifelog> [log|sync|http|webdav|report|crypto|exchange|imports|sheet|shell|postgres|rhythm|server-cpu|peers|floor|migration|spreadsheet]"

  static func run(arguments: [String]) -> Int32 {
    guard (1...2).contains(arguments.count), let lifelog = arguments.first, !lifelog.hasPrefix("-"),
      let part = BenchmarkSuite.Part(rawValue: arguments.count == 2 ? arguments[1] : "all")
    else {
      fputs(usage + "\n", stderr)
      return 64
    }
    guard access(lifelog, X_OK) == 0 else {
      Log.error("'\(lifelog)' is not an executable file; build it with 'make build' first")
      return 64
    }
    do {
      let folder = try TemporaryFolder(prefix: "lifelog-bench")
      defer { folder.remove() }
      let suite = BenchmarkSuite(lifelog: lifelog, folder: folder.path, part: part)
      var missed: [String] = []
      try suite.run { figure in
        print(figure.jsonLine)
        fflush(stdout)
        if !figure.met { missed.append(figure.name) }
      }
      if missed.isEmpty {
        Log.info("All figures met their targets")
      } else {
        Log.info("Missed targets: \(missed.joined(separator: ", "))")
      }
      return 0
    } catch {
      Log.error("\(error)")
      return 1
    }
  }
}

/// Progress and error lines on stderr (stdout carries only the figures).
enum Log {
  static func info(_ message: String) {
    fputs("lifelog-bench: \(message)\n", stderr)
  }

  static func error(_ message: String) {
    fputs("lifelog-bench: error: \(message)\n", stderr)
  }
}

/// A measurement that could not be made.
struct BenchmarkError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
