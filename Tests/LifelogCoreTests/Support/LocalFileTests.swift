@preconcurrency import Glibc
import LifelogCore
import LifelogTestSupport
import Testing

/// ``LocalFile`` on real files in a temporary folder.
@Suite struct LocalFileTests {
  static func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
  }

  @Test func aWrittenFileReadsBackWithItsModeAndLeavesNoTemporaryBehind() throws {
    let folder = TemporaryDirectory()
    let path = folder.file("token")
    try LocalFile.write(Array("first\n".utf8), to: path)
    try LocalFile.write(Array("second\n".utf8), to: path, mode: 0o640)
    #expect(try LocalFile.read(path) == Array("second\n".utf8))
    #expect(Self.mode(path) == 0o640)
    let names = try #require(try? FileSystemNames.of(folder.path))
    #expect(names == ["token"])
  }

  /// A name of the longest length a folder allows (255 bytes) still gets a temporary name
  /// beside it; a file dropped before its commit leaves nothing, and the target is untouched.
  @Test func theLongestNameIsWrittenAndAnUncommittedFileLeavesNothing() throws {
    let folder = TemporaryDirectory()
    let path = folder.file(String(repeating: "ż", count: 127) + "x")
    try LocalFile.write(Array("kept\n".utf8), to: path)
    do {
      let file = try AtomicFile(replacing: path, mode: 0o600)
      try file.write(Array("dropped\n".utf8))
    }
    #expect(try LocalFile.read(path) == Array("kept\n".utf8))
    #expect(try FileSystemNames.of(folder.path).count == 1)
  }

  @Test func aFileOverTheLimitIsRefusedAndAMissingOneNamesErrno() throws {
    let folder = TemporaryDirectory()
    let path = folder.file("big")
    try LocalFile.write([UInt8](repeating: 0x61, count: 5000), to: path)
    #expect(try LocalFile.read(path, limit: 5000).count == 5000)
    #expect(throws: LocalFileError(.tooLarge(4999), path)) {
      try LocalFile.read(path, limit: 4999)
    }
    #expect(throws: LocalFileError(.system(ENOENT), folder.file("none"))) {
      try LocalFile.read(folder.file("none"))
    }
  }

  @Test func foldersAreMadeWithTheirModeAndTheFirstThatFailsIsNamed() throws {
    let folder = TemporaryDirectory()
    try LocalFile.createFolders(above: folder.file("a/b/c.db"))
    #expect(Self.mode(folder.file("a/b")) == 0o700)
    #expect(access(folder.file("a/b/c.db"), F_OK) != 0)
    try LocalFile.createFolders(folder.file("a/b"))  // existing folders are fine
    try LocalFile.write([], to: folder.file("file"))
    let error = #expect(throws: LocalFileError.self) {
      try LocalFile.createFolders(folder.file("file/x/y"))
    }
    #expect(error?.kind == .system(ENOTDIR))
    #expect(error?.path.hasSuffix("/file/x") == true)
  }
}

/// The names in a folder, sorted, without `.` and `..`.
enum FileSystemNames {
  static func of(_ path: String) throws -> [String] {
    guard let directory = opendir(path) else { throw LocalFileError(.system(errno), path) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }
}
