import Foundation
@preconcurrency import Glibc
import LifelogTestSupport
import Testing

@testable import LifelogSync

/// The path-based reads kept for code that looks at a remote by path (a checker): the same rules
/// as ``RemoteFolder``, so no reader of a remote follows a link, blocks on a FIFO or reads past a cap.
@Suite struct RemoteFolderTests {
  let folder = TemporaryDirectory(prefix: "lifelog-remote-folder")

  @Test func aPathReadRefusesLinksFIFOsFoldersAndOversizeFilesAndNeverBlocks() throws {
    try Data("hello\n".utf8).write(to: URL(fileURLWithPath: folder.file("plain")))
    #expect(try FileSystem.read(folder.file("plain")) == Array("hello\n".utf8))
    #expect(try FileSystem.read(folder.file("missing")) == nil)
    #expect(symlink("/dev/zero", folder.file("zero")) == 0)
    #expect(mkfifo(folder.file("fifo"), 0o600) == 0)
    #expect(mkdir(folder.file("dir"), 0o700) == 0)
    for (name, reason) in [
      ("zero", "is a symbolic link"), ("fifo", "is not a regular file"),
      ("dir", "is a folder, not a file"),
    ] {
      #expect(throws: SyncError.self, "\(name)") { try FileSystem.read(folder.file(name)) }
      do {
        _ = try FileSystem.read(folder.file(name))
      } catch {
        #expect(error.description.contains(reason), "\(name): \(error)")
      }
    }
    #expect(throws: SyncError.self) { try FileSystem.read(folder.file("plain"), limit: 5) }
    #expect(
      !FileSystem.isDirectory(folder.file("zero")) && FileSystem.isDirectory(folder.file("dir")))
    #expect(try FileSystem.list(folder.file("dir")) == [])
  }

  @Test func aWholeAnswerParsesWithTheLargestCap() {
    guard
      case .badAnswer(let message) = PlainHTTPClient.parse(
        Array("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n".utf8))
    else {
      Issue.record("a negative Content-Length was taken")
      return
    }
    #expect(message.contains("Content-Length"))
    guard
      case .response(let answer) = PlainHTTPClient.parse(
        Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
    else {
      Issue.record("a good answer was refused")
      return
    }
    #expect(answer.status == 200 && answer.body == Array("ok".utf8))
  }
}
