import CLifelogZlib
@preconcurrency import Glibc
import LifelogCore

/// The bytes of one entry of a zip file, inflated as they are read: Apple Health's export.zip
/// holds export.xml, often several GB of it, compressed.
///
/// The entry is found in the zip's central directory (at the end of the file, so the zip must be
/// a file, not a pipe; ZIP64 sizes and offsets are read), then its compressed bytes are read in
/// 1 MiB chunks and inflated by zlib (loaded with dlopen, Sources/CLifelogZlib) into the
/// caller's buffer: memory stays at two chunks whatever the entry's size. The bytes handed out
/// are checked against the entry's CRC-32 at its end, so a damaged zip whose deflate stream still
/// decodes is refused rather than imported.
final class ZipEntryReader {
  static let chunkSize = 1 << 20
  /// The central directory read at most: export.zip holds one file per workout route and ECG.
  static let maximumDirectoryBytes = 64 << 20

  private let descriptor: Int32
  private let path: String
  private var offset: Int64
  private var remaining: Int64
  /// The entry's compressed size, and the size its directory record claims it inflates to.
  let compressedSize: Int64
  let claimedSize: Int64
  /// The entry's name, for messages.
  private let name: String
  private let inflater: OpaquePointer?
  private var chunk: [UInt8] = []
  private var chunkStart = 0
  private var finished = false
  private let expectedCRC: UInt32
  private var crc: UInt = 0

  /// Opens `path` and finds the entry whose name is `name` or ends in `/name`.
  ///
  /// `expected` names the file the zip should be, for the message when the entry is missing.
  init(path: String, entry name: String, expected: String = "Apple Health's export.zip") throws {
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw InputFileError.opening(path, errno: errno) }
    self.path = path
    self.name = name
    var found: ZipDirectory.Entry?
    do {
      found = try ZipDirectory(descriptor: descriptor, path: path).entry(named: name)
    } catch {
      close(descriptor)
      throw error
    }
    guard let entry = found else {
      close(descriptor)
      throw InputError("'\(path)' is a zip file without \(name); is it \(expected)?")
    }
    (offset, remaining) = (entry.dataOffset, entry.compressedSize)
    (compressedSize, claimedSize) = (entry.compressedSize, entry.claimedSize)
    expectedCRC = entry.crc32
    var error = [CChar](repeating: 0, count: 512)
    guard lifelog_zlib_load(&error, error.count) == 0 else {
      close(descriptor)
      throw InputError(
        String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    if entry.method == 8 {
      guard let inflater = lifelog_inflate_open() else {
        close(descriptor)
        throw InputError("cannot start zlib's inflater (out of memory)")
      }
      self.inflater = inflater
    } else {
      inflater = nil
    }
  }

  deinit {
    if let inflater { lifelog_inflate_close(inflater) }
    close(descriptor)
  }

  /// Fills `buffer` with the entry's next bytes; 0 at its end, once their CRC-32 matched.
  func fill(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let made = try next(buffer)
    guard made > 0 else {
      guard UInt32(truncatingIfNeeded: crc) == expectedCRC else {
        throw InputError("'\(path)': the checksum of \(name) does not match; is the zip damaged?")
      }
      return 0
    }
    crc = lifelog_crc32(
      crc, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(made))
    return made
  }

  /// The entry's next bytes into `buffer`, unchecked; 0 at its end.
  private func next(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard let inflater else {  // stored: the bytes as they are
      let wanted = Int(min(Int64(buffer.count), remaining))
      guard wanted > 0 else { return 0 }
      let got = try read(into: buffer.baseAddress, count: wanted)
      return got
    }
    while !finished {
      if chunkStart == chunk.count {
        guard remaining > 0 else {
          throw InputError("'\(path)': the compressed \(name) ends early; is the zip cut short?")
        }
        chunk = [UInt8](repeating: 0, count: Int(min(Int64(Self.chunkSize), remaining)))
        let got = try chunk.withUnsafeMutableBytes { bytes in
          try read(into: bytes.baseAddress, count: bytes.count)
        }
        chunk.removeLast(chunk.count - got)
        chunkStart = 0
      }
      var used: UInt32 = 0
      var made: UInt32 = 0
      let status = chunk.withUnsafeBufferPointer { input in
        lifelog_inflate(
          inflater, input.baseAddress.map { $0 + chunkStart }, UInt32(input.count - chunkStart),
          &used, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(buffer.count),
          &made)
      }
      guard status >= 0 else {
        throw InputError("'\(path)': \(name)'s compressed data is damaged")
      }
      chunkStart += Int(used)
      if status == 1 { finished = true }
      if made > 0 { return Int(made) }
    }
    return 0
  }

  /// Reads up to `count` of the entry's bytes into `address` (nil only for an empty buffer, which
  /// neither caller passes; pread would fail on it rather than crash).
  private func read(into address: UnsafeMutableRawPointer?, count: Int) throws -> Int {
    while true {
      let got = pread(descriptor, address, count, off_t(offset))
      if got > 0 {
        offset += Int64(got)
        remaining -= Int64(got)
        return got
      }
      if got == 0 { throw InputError("'\(path)' ends inside \(name); is it cut short?") }
      if errno != EINTR {
        throw InputFileError.readFailed(path, reason: String(cString: strerror(errno)))
      }
    }
  }
}
