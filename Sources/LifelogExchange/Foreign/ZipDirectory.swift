@preconcurrency import Glibc
import LifelogCore

/// A zip file's central directory (APPNOTE.TXT 4.3.12–4.3.16, ZIP64 too), read to find one entry.
///
/// Every number comes from the file, so each is checked against the file's size before it is
/// used: a damaged or hostile zip gets an error, never a read past what it holds.
struct ZipDirectory {
  struct Entry {
    var name: String
    /// 0 stored, 8 deflated: the only methods read.
    var method: Int
    var compressedSize: Int64
    /// What the directory claims the entry inflates to: a claim, checked against what it does.
    var claimedSize: Int64
    /// The CRC-32 of the entry's bytes once inflated, as the central directory gives it.
    var crc32: UInt32
    /// Where the entry's compressed bytes start (after its local header).
    var dataOffset: Int64
  }

  let descriptor: Int32
  let path: String
  let size: Int64

  init(descriptor: Int32, path: String) throws {
    self.descriptor = descriptor
    self.path = path
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw InputFileError.readFailed(path, reason: String(cString: strerror(errno)))
    }
    size = Int64(info.st_size)
  }

  /// The entry named `name`, or whose name ends in `/name`; nil when there is none.
  func entry(named name: String) throws -> Entry? {
    let (start, length) = try directory()
    let bytes = try read(at: start, count: length)
    var cursor = 0
    while cursor + 46 <= bytes.count {
      guard bytes.le32(cursor) == 0x0201_4B50 else { throw damaged("has a damaged directory") }
      let flags = bytes.le16(cursor + 8)
      let method = bytes.le16(cursor + 10)
      let crc32 = UInt32(truncatingIfNeeded: bytes.le32(cursor + 16))
      var compressed = Int64(bytes.le32(cursor + 20))
      let uncompressedField = bytes.le32(cursor + 24)
      var uncompressed = Int64(uncompressedField)
      let nameLength = bytes.le16(cursor + 28)
      let extraLength = bytes.le16(cursor + 30)
      let commentLength = bytes.le16(cursor + 32)
      var local = Int64(bytes.le32(cursor + 42))
      let nameStart = cursor + 46
      let next = nameStart + nameLength + extraLength + commentLength
      guard next <= bytes.count else { throw damaged("has a damaged directory") }
      let entryName = String(decoding: bytes[nameStart..<(nameStart + nameLength)], as: UTF8.self)
      if entryName == name || entryName.hasSuffix("/" + name) {
        // ZIP64 extra field: the 8-byte values of the fields that hold 0xFFFFFFFF, in order.
        var extra = nameStart + nameLength
        let extraEnd = extra + extraLength
        while extra + 4 <= extraEnd {
          let id = bytes.le16(extra)
          let dataLength = bytes.le16(extra + 2)
          if id == 1 {
            var field = extra + 4
            if uncompressedField == 0xFFFF_FFFF, field + 8 <= extraEnd {
              uncompressed = bytes.le64(field)
              field += 8
            }
            if compressed == 0xFFFF_FFFF, field + 8 <= extraEnd {
              compressed = bytes.le64(field)
              field += 8
            }
            if local == 0xFFFF_FFFF, field + 8 <= extraEnd { local = bytes.le64(field) }
          }
          extra += 4 + dataLength
        }
        guard flags & 1 == 0 else { throw damaged("holds \(name) encrypted") }
        guard method == 0 || method == 8 else {
          throw damaged("compresses \(name) with method \(method); only deflate is read")
        }
        let header = try read(at: local, count: 30)
        guard header.le32(0) == 0x0403_4B50 else { throw damaged("has a damaged entry") }
        let dataOffset = local + 30 + Int64(header.le16(26)) + Int64(header.le16(28))
        guard compressed >= 0, dataOffset <= size, compressed <= size - dataOffset else {
          throw damaged("says \(name) is larger than the file")
        }
        return Entry(
          name: entryName, method: method, compressedSize: compressed,
          claimedSize: uncompressed, crc32: crc32, dataOffset: dataOffset)
      }
      cursor = next
    }
    return nil
  }

  /// Where the central directory starts and how long it is, from the end-of-directory records.
  private func directory() throws -> (Int64, Int) {
    let tailLength = Int(min(size, 22 + 65535))
    let tail = try read(at: size - Int64(tailLength), count: tailLength)
    var end = tail.count - 22
    while end >= 0, tail.le32(end) != 0x0605_4B50 { end -= 1 }
    guard end >= 0 else { throw damaged("is not a zip file (no end of central directory)") }
    var start = Int64(tail.le32(end + 16))
    var length = Int64(tail.le32(end + 12))
    if start == 0xFFFF_FFFF || length == 0xFFFF_FFFF {
      let locatorAt = size - Int64(tailLength) + Int64(end) - 20
      guard locatorAt >= 0 else { throw damaged("has a damaged ZIP64 locator") }
      let locator = try read(at: locatorAt, count: 20)
      guard locator.le32(0) == 0x0706_4B50 else { throw damaged("has a damaged ZIP64 locator") }
      let record = try read(at: locator.le64(8), count: 56)
      guard record.le32(0) == 0x0606_4B50 else { throw damaged("has a damaged ZIP64 record") }
      length = record.le64(40)
      start = record.le64(48)
    }
    guard start >= 0, length >= 0, length <= Int64(ZipEntryReader.maximumDirectoryBytes),
      start <= size, length <= size - start
    else { throw damaged("has a central directory that does not fit in it") }
    return (start, Int(length))
  }

  private func read(at offset: Int64, count: Int) throws -> [UInt8] {
    guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
      throw damaged("points past its end")
    }
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        pread(
          descriptor, buffer.baseAddress.map { $0 + done }, count - done,
          off_t(offset) + off_t(done))
      }
      if got > 0 {
        done += got
      } else if got == 0 {
        throw damaged("ends early")
      } else if errno != EINTR {
        throw InputFileError.readFailed(path, reason: String(cString: strerror(errno)))
      }
    }
    return bytes
  }

  private func damaged(_ what: String) -> InputError { InputError("zip file '\(path)' \(what)") }
}

extension [UInt8] {
  fileprivate func le16(_ at: Int) -> Int { Int(self[at]) | Int(self[at + 1]) << 8 }
  fileprivate func le32(_ at: Int) -> Int { le16(at) | le16(at + 2) << 16 }
  fileprivate func le64(_ at: Int) -> Int64 {
    let value = UInt64(le32(at)) | UInt64(le32(at + 4)) << 32
    return Int64(truncatingIfNeeded: value & 0x7FFF_FFFF_FFFF_FFFF)
  }
}
