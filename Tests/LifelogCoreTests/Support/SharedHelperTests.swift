@preconcurrency import Glibc
import LifelogCore
import Testing

/// The small helpers more than one module calls (``HexText``, ``DescriptorWrite``,
/// ``ChildPipe``), held to what each caller relies on.
@Suite struct SharedHelperTests {
  @Test func hexTextReadsKeysInGroupsAndCatalogLinesAlike() {
    #expect(HexText.bytes("00ff7A") == [0x00, 0xFF, 0x7A])
    #expect(
      HexText.bytes("0011-2233 4455\n6677\t88\r99") == [
        0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99,
      ])
    #expect(HexText.bytes("") == [])
  }

  @Test func hexTextRefusesOtherCharactersAndAnOddDigit() {
    #expect(HexText.bytes("0g") == nil)
    #expect(HexText.bytes("abc") == nil)
    #expect(HexText.bytes("ab:cd") == nil)
  }

  @Test func descriptorWriteWritesEveryByteThroughAPipe() throws {
    let ends = try #require(ChildPipe.make())
    defer { close(ends.readEnd) }
    // More than one write may take: a pipe holds 64 KiB, so the reader drains it meanwhile.
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var read: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var writer = pthread_t()
    final class Job: @unchecked Sendable {
      let bytes: [UInt8]
      let descriptor: Int32
      var written = false
      init(_ bytes: [UInt8], _ descriptor: Int32) {
        self.bytes = bytes
        self.descriptor = descriptor
      }
    }
    let job = Job(bytes, ends.writeEnd)
    let context = Unmanaged.passRetained(job).toOpaque()
    #expect(
      pthread_create(
        &writer, nil,
        { context in
          let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
          job.written = DescriptorWrite.all(job.bytes, to: job.descriptor)
          close(job.descriptor)
          return nil
        }, context) == 0)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        Glibc.read(ends.readEnd, $0.baseAddress, $0.count)
      }
      if count > 0 {
        read.append(contentsOf: buffer[0..<count])
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    pthread_join(writer, nil)
    #expect(job.written)
    #expect(read == bytes)
  }

  @Test func descriptorWriteSaysWhenTheWriteFails() {
    let wrote = DescriptorWrite.all([1, 2, 3], to: -1)
    let code = errno
    #expect(!wrote)
    #expect(code == EBADF)
  }

  @Test func childPipeEndsCloseOnExec() throws {
    let ends = try #require(ChildPipe.make())
    defer {
      close(ends.readEnd)
      close(ends.writeEnd)
    }
    #expect(fcntl(ends.readEnd, F_GETFD) & FD_CLOEXEC != 0)
    #expect(fcntl(ends.writeEnd, F_GETFD) & FD_CLOEXEC != 0)
  }
}
