@preconcurrency import Glibc

// `lifelog-bench <release lifelog>`: one JSON line per figure (see docs/benchmarks.md).
exit(BenchmarkCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
