import CLifelogFuzz
@preconcurrency import Glibc
import LifelogCore

@testable import LifelogSync

/// Runs libFuzzer's driver with the command line (`-max_total_time=30 corpus/ …`).
@main
struct LifelogFuzz {
  static func main() {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
  }
}

/// The one function libFuzzer calls, once per generated input.
///
/// One binary holds every harness, chosen by `LIFELOG_FUZZ_TARGET` (`make fuzz` sets it), so the
/// libraries are compiled with coverage once rather than once per parser. A harness only feeds the
/// input to a parser and lets it throw: a trap, a sanitizer report or a hang is the finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzTarget.selected.run(bytes)
  return 0
}

/// The parsers there is a harness for (docs/testing.md).
enum FuzzTarget: String, CaseIterable, Sendable {
  case batch, envelope, json, csv, time, duration, http, changes, zip, elements, foreign
  case cronometer, multistatus

  /// The target `LIFELOG_FUZZ_TARGET` names; the program stops with a list when it names none.
  static let selected: FuzzTarget = {
    let name = getenv("LIFELOG_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      let names = allCases.map(\.rawValue).joined(separator: ", ")
      fputs("lifelog-fuzz: set LIFELOG_FUZZ_TARGET to one of: \(names)\n", stderr)
      exit(64)
    }
    return target
  }()

  func run(_ bytes: [UInt8]) {
    switch self {
    case .batch: BatchFuzz.run(bytes)
    case .envelope: EnvelopeFuzz.run(bytes)
    case .json: _ = try? JSONValue.parse(bytes)
    case .csv: ImportFuzz.run(bytes)
    case .time: TimeFuzz.run(bytes)
    case .duration: TimeFuzz.runDuration(bytes)
    case .http: _ = PlainHTTPClient.parse(bytes)
    case .changes: ChangesFuzz.run(bytes)
    case .zip: ForeignFuzz.runZip(bytes)
    case .elements: ForeignFuzz.runElements(bytes)
    case .foreign: ForeignFuzz.runJSONSources(bytes)
    case .cronometer: ForeignFuzz.runCronometer(bytes)
    case .multistatus:
      // A WebDAV listing, and the same bytes as a stored WebDAV cursor.
      if let entries = try? DAVMultistatus.parse(bytes) { _ = entries.map(\.name) }
      _ = DAVPullState(parsing: String(decoding: bytes, as: UTF8.self)).encoded
    }
  }
}
