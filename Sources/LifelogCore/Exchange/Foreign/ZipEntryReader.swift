import CLifelogZlib
@preconcurrency import Glibc

/// The bytes of one entry of a zip file, inflated as they are read: Apple Health's export.zip
/// holds export.xml, often several GB of it, compressed.
///
/// The entry is found in the zip's central directory (at the end of the file, so the zip must be
/// a file, not a pipe; ZIP64 sizes and offsets are read), then its compressed bytes are read in
/// 1 MiB chunks and inflated by zlib (loaded with dlopen, Sources/CLifelogZlib) into the
/// caller's buffer: memory stays at two chunks whatever the entry's size.
final class ZipEntryReader {
  static let chunkSize = 1 << 20
  /// The central directory read at most: export.zip holds one file per workout route and ECG.
  static let maximumDirectoryBytes = 64 << 20

  private let descriptor: Int32
  private let path: String
  private var offset: Int64
  private var remaining: Int64
  private let inflater: OpaquePointer?
  private var chunk: [UInt8] = []
  private var chunkStart = 0
  private var finished = false

  /// Opens `path` and finds the entry whose name is `name` or ends in `/name`.
  init(path: String, entry name: String) throws {
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw InputFileError.opening(path, errno: errno) }
    self.path = path
    var found: ZipDirectory.Entry?
    do {
      found = try ZipDirectory(descriptor: descriptor, path: path).entry(named: name)
    } catch {
      close(descriptor)
      throw error
    }
    guard let entry = found else {
      close(descriptor)
      throw InputError("'\(path)' is a zip file without \(name); is it Apple Health's export.zip?")
    }
    (offset, remaining) = (entry.dataOffset, entry.compressedSize)
    if entry.method == 8 {
      var error = [CChar](repeating: 0, count: 512)
      guard lifelog_zlib_load(&error, error.count) == 0, let inflater = lifelog_inflate_open()
      else {
        close(descriptor)
        throw InputError(
          String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
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

  /// Fills `buffer` with the entry's next bytes; 0 at its end.
  func fill(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard let inflater else {  // stored: the bytes as they are
      let wanted = Int(min(Int64(buffer.count), remaining))
      guard wanted > 0 else { return 0 }
      let got = try read(into: buffer.baseAddress, count: wanted)
      return got
    }
    while !finished {
      if chunkStart == chunk.count {
        guard remaining > 0 else {
          throw InputError("'\(path)': the compressed export.xml ends early; is the zip cut short?")
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
        throw InputError("'\(path)': export.xml's compressed data is damaged")
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
      if got == 0 { throw InputError("'\(path)' ends inside export.xml; is it cut short?") }
      if errno != EINTR {
        throw InputFileError.readFailed(path, reason: String(cString: strerror(errno)))
      }
    }
  }
}
