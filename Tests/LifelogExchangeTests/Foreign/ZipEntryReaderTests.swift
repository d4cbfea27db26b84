import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogExchange

/// ``ZipEntryReader`` (over ``ZipDirectory``) on real zip files made by Python's `zipfile`, then
/// damaged byte by byte: every damage is a thrown ``InputError``, never a trap or a read past the
/// file, and a good entry reads back whole, whatever the chunk size.
@Suite struct ZipEntryReaderTests {
  let folder = TemporaryDirectory(prefix: "lifelog-zip")
  /// Big enough for several inflate rounds of a small buffer, and not all the same byte.
  static let content = Array(
    (0..<20_000).map { "<Record n=\"\($0)\"/>\n" }.joined().utf8)

  /// A zip at `name` holding `export.xml` (inside `apple_health_export/`), deflated or stored.
  func zip(_ name: String = "export.zip", deflated: Bool = true) throws -> String {
    let source = folder.file("export.xml")
    try Data(Self.content).write(to: URL(fileURLWithPath: source))
    let path = folder.file(name)
    let made = try ToolProcess.output(
      "/usr/bin/python3",
      [
        "-c",
        """
        import sys, zipfile
        method = zipfile.ZIP_DEFLATED if sys.argv[3] == 'deflated' else zipfile.ZIP_STORED
        with zipfile.ZipFile(sys.argv[2], 'w', method) as z:
            z.write(sys.argv[1], 'apple_health_export/export.xml')
        """,
        source, path, deflated ? "deflated" : "stored",
      ])
    try #require(made.status == 0, "\(made.text)")
    return path
  }

  /// Every byte of the entry, read through a buffer of `bufferSize` bytes.
  func readAll(_ path: String, bufferSize: Int = 4096) throws -> [UInt8] {
    let reader = try ZipEntryReader(path: path, entry: "export.xml")
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: bufferSize)
    while true {
      let got = try buffer.withUnsafeMutableBytes { try reader.fill($0) }
      if got == 0 { return result }
      result += buffer[..<got]
    }
  }

  /// Rewrites the file at `path` with `change` applied to its bytes.
  func damage(_ path: String, _ change: (inout [UInt8]) -> Void) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    change(&bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// Where the first record with signature `signature` (little-endian) starts.
  static func offset(of signature: UInt32, in bytes: [UInt8]) -> Int? {
    let le = [0, 8, 16, 24].map { UInt8((signature >> UInt32($0)) & 0xFF) }
    return bytes.indices.dropLast(3).first { Array(bytes[$0..<($0 + 4)]) == le }
  }

  static let centralEntry: UInt32 = 0x0201_4B50
  static let localEntry: UInt32 = 0x0403_4B50

  func expectRefused(
    _ path: String, saying words: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(sourceLocation: sourceLocation) {
      _ = try readAll(path)
    } throws: { error in
      guard let error = error as? InputError else { return false }
      return error.description.contains(words)
    }
  }

  @Test(arguments: [true, false], [1, 7, 4096, 1 << 20])
  func anEntryReadsBackWholeWhateverTheBuffer(deflated: Bool, bufferSize: Int) throws {
    #expect(try readAll(try zip(deflated: deflated), bufferSize: bufferSize) == Self.content)
  }

  @Test func aZipWithoutTheEntryIsRefused() throws {
    let path = try zip()
    #expect(throws: InputError.self) { try ZipEntryReader(path: path, entry: "other.xml") }
  }

  @Test func aZipCutShortLosesItsDirectoryAndIsRefused() throws {
    let path = try zip()
    try damage(path) { $0.removeLast($0.count / 2) }
    expectRefused(path, saying: "is not a zip file")
  }

  @Test func aFileThatIsNoZipIsRefused() throws {
    let path = folder.file("export.zip")
    try Data("PK\u{3}\u{4}not really a zip".utf8).write(to: URL(fileURLWithPath: path))
    expectRefused(path, saying: "is not a zip file")
    try Data().write(to: URL(fileURLWithPath: path))
    expectRefused(path, saying: "is not a zip file")
  }

  @Test func aDirectoryThatSaysTheEntryIsLargerThanTheFileIsRefused() throws {
    let path = try zip()
    try damage(path) { bytes in
      guard let entry = Self.offset(of: Self.centralEntry, in: bytes) else { return }
      // The compressed size (offset 20): far past the end of the file.
      for index in 20..<24 { bytes[entry + index] = 0x7F }
    }
    expectRefused(path, saying: "larger than the file")
  }

  @Test func aDirectoryPointingPastTheEndIsRefused() throws {
    let path = try zip()
    try damage(path) { bytes in
      guard let entry = Self.offset(of: Self.centralEntry, in: bytes) else { return }
      // The local header's offset (42).
      for index in 42..<46 { bytes[entry + index] = 0x7F }
    }
    expectRefused(path, saying: "points past its end")
  }

  @Test func compressedDataCutShortIsRefused() throws {
    let path = try zip()
    try damage(path) { bytes in
      guard let entry = Self.offset(of: Self.centralEntry, in: bytes) else { return }
      // A compressed size of 100 bytes: the deflate stream ends before its last block.
      bytes[entry + 20] = 100
      for index in 21..<24 { bytes[entry + index] = 0 }
    }
    expectRefused(path, saying: "ends early")
  }

  @Test func damagedCompressedDataIsRefused() throws {
    let path = try zip()
    try damage(path) { bytes in
      guard let local = Self.offset(of: Self.localEntry, in: bytes) else { return }
      let nameLength = Int(bytes[local + 26]) | Int(bytes[local + 27]) << 8
      let extraLength = Int(bytes[local + 28]) | Int(bytes[local + 29]) << 8
      // The first deflate block's type becomes 3, which RFC 1951 reserves (an error).
      bytes[local + 30 + nameLength + extraLength] = 0xFF
    }
    expectRefused(path, saying: "damaged")
  }

  @Test func anEncryptedOrOddlyCompressedEntryIsRefused() throws {
    let encrypted = try zip("encrypted.zip")
    try damage(encrypted) { bytes in
      guard let entry = Self.offset(of: Self.centralEntry, in: bytes) else { return }
      bytes[entry + 8] |= 1
    }
    expectRefused(encrypted, saying: "encrypted")
    let bzip = try zip("bzip.zip")
    try damage(bzip) { bytes in
      guard let entry = Self.offset(of: Self.centralEntry, in: bytes) else { return }
      bytes[entry + 10] = 12
    }
    expectRefused(bzip, saying: "method 12")
  }

  @Test func aWrongChecksumIsRefusedAtTheEndOfTheEntry() throws {
    let path = try zip()
    try damage(path) { bytes in
      guard let entry = Self.offset(of: Self.centralEntry, in: bytes) else { return }
      // The CRC-32 (offset 16) of the central directory, which the reader trusts.
      bytes[entry + 16] ^= 0xFF
    }
    expectRefused(path, saying: "checksum")
  }
}
