@preconcurrency import Glibc

@testable import LifelogCore
@testable import LifelogExchange

/// The readers of `lifelog import --from` (Sources/LifelogExchange/Foreign/): the zip reader
/// under apple-health, the JSON element reader, and each source's row mapping.
///
/// Every input goes through one scratch file in the temporary folder, kept by path because the
/// zip reader opens the file itself (it reads the central directory from the end).
enum ForeignFuzz {
  /// `/tmp/lifelog-fuzz-…/input`, rewritten for every input.
  static let scratchPath: String = {
    var template = Array("/tmp/lifelog-fuzz-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { fatalError("cannot make a scratch folder") }
    return String(cString: template) + "/input"
  }()

  /// The activities the log is given: one counted in kcal, one not, so both cronometer branches
  /// and timewarrior's "first tag that names one" are reached.
  static let activities = [
    Activity(id: "1", name: "breakfast", kind: .meal, unit: "kcal"),
    Activity(id: "2", name: "lunch", kind: .meal, unit: "g"),
    Activity(id: "3", name: "work", kind: .other),
  ]

  /// Writes `bytes` to ``scratchPath`` and returns it opened for reading (the caller closes it).
  static func scratch(_ bytes: some Collection<UInt8>) -> Int32 {
    let input = Array(bytes)
    let out = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard out >= 0 else { fatalError("cannot write the scratch file") }
    var written = 0
    while written < input.count {
      let count = input.withUnsafeBytes {
        write(out, $0.baseAddress.map { $0 + written }, $0.count - written)
      }
      guard count > 0 else { fatalError("cannot write the scratch file") }
      written += count
    }
    close(out)
    let descriptor = open(scratchPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { fatalError("cannot read the scratch file") }
    return descriptor
  }

  /// `zip`: the input as a zip file; finds export.xml in its central directory
  /// (``ZipDirectory``) and inflates it to the end (``ZipEntryReader``).
  static func runZip(_ bytes: [UInt8]) {
    close(scratch(bytes))
    guard let reader = try? ZipEntryReader(path: scratchPath, entry: "export.xml") else { return }
    var buffer = [UInt8](repeating: 0, count: 4096)
    // Bounded, so a reader that stops advancing shows up as a hang (a finding).
    for _ in 0..<100_000 {
      let got = try? buffer.withUnsafeMutableBytes { try reader.fill($0) }
      guard let got, got > 0 else { return }
    }
  }

  /// `elements`: ``JSONElementReader`` element by element; the first byte picks the chunk size
  /// (1–64 bytes) and whether the array is the `entries` member of an object (jrnl's form).
  static func runElements(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let descriptor = scratch(bytes.dropFirst())
    let input = ChunkedReader(descriptor: descriptor, closing: true, chunkSize: Int(first % 64) + 1)
    let elements = JSONElementReader(input, member: first & 0x40 != 0 ? "entries" : nil)
    for _ in 0..<100_000 {
      guard let element = try? elements.next() else { return }
      _ = element
    }
  }

  /// `foreign`: the JSON sources' row mapping; the first byte picks the source (timewarrior,
  /// watson, jrnl, or timewarrior with `--activity`) and the chunk size; every row is then
  /// validated as `lifelog import` does.
  static func runJSONSources(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let sources: [(ForeignSource, String?)] = [
      (.timewarrior, nil), (.watson, nil), (.jrnl, nil), (.timewarrior, "work"),
    ]
    let (source, activity) = sources[Int(first & 3)]
    read(source, activity: activity, chunkSize: Int(first >> 2) + 1, bytes.dropFirst())
  }

  /// `cronometer`: the servings CSV's mapping (meals gathered from consecutive rows); the first
  /// byte picks the chunk size.
  static func runCronometer(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    read(.cronometer, activity: nil, chunkSize: Int(first % 64) + 1, bytes.dropFirst())
  }

  private static func read(
    _ source: ForeignSource, activity: String?, chunkSize: Int, _ bytes: ArraySlice<UInt8>
  ) {
    let descriptor = scratch(bytes)
    let input = ChunkedReader(descriptor: descriptor, closing: true, chunkSize: chunkSize)
    let context = ForeignImportContext(
      parser: TimeFuzz.parser, activity: activity, activities: activities)
    guard let records = try? source.records(from: input, path: nil, context: context) else {
      return
    }
    for _ in 0..<100_000 {
      guard let record = try? records.next() else { break }
      if case .success(let row) = record { _ = try? row.validated(parser: TimeFuzz.parser) }
    }
    _ = records.notices
  }
}
