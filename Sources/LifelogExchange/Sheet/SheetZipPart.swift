@preconcurrency import Glibc
import LifelogCore

/// One XML part of an xlsx or ods file (a zip), read through bounds that stop a zip bomb: what
/// its directory claims, what it inflates to, and how far beyond its compressed size.
final class SheetZipPart {
  /// The most one part may inflate to: a sheet kept by hand is a few MB of XML.
  static let maximumBytes: Int64 = 512 << 20
  /// How many times its compressed size a part may inflate to (beyond a small floor): XML of a
  /// real sheet compresses 5 to 30 times; a bomb compresses thousands of times.
  static let maximumRatio: Int64 = 200
  static let ratioFloor: Int64 = 4 << 20

  private let reader: ZipEntryReader
  private let path: String
  private let name: String
  private var inflated: Int64 = 0

  /// Opens part `name` of the zip at `path`.
  ///
  /// - Throws: ``InputError`` when the zip lacks it or its directory claims more than
  ///   ``maximumBytes``.
  init(path: String, name: String, expected: String) throws {
    reader = try ZipEntryReader(path: path, entry: name, expected: expected)
    self.path = path
    self.name = name
    guard reader.claimedSize <= Self.maximumBytes else {
      throw InputError(
        "'\(path)': \(name) claims to inflate to \(reader.claimedSize) bytes, more than the "
          + "\(Self.maximumBytes >> 20) MiB a sheet may be; is it a zip bomb?")
    }
  }

  /// Whether the zip at `path` has a part named `name`.
  static func exists(path: String, name: String) throws -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw InputFileError.unreadable(path, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    return try ZipDirectory(descriptor: descriptor, path: path).entry(named: name) != nil
  }

  /// The part's XML, read as it inflates.
  func xml() throws -> XMLStreamReader {
    try XMLStreamReader { [self] buffer in
      let made = try reader.fill(buffer)
      inflated += Int64(made)
      let allowed = max(Self.ratioFloor, reader.compressedSize * Self.maximumRatio)
      guard inflated <= min(allowed, Self.maximumBytes) else {
        throw InputError(
          "'\(path)': \(name) inflates to more than \(Self.maximumRatio) times its compressed "
            + "size (or \(Self.maximumBytes >> 20) MiB); is it a zip bomb?")
      }
      guard inflated <= reader.claimedSize || reader.claimedSize == 0 else {
        throw InputError("'\(path)': \(name) inflates to more than its zip directory says")
      }
      return made
    }
  }
}

/// The bounds every sheet reader keeps, whatever the file says.
enum SheetLimits {
  /// Excel's own limits: 16,384 columns (XFD), 1,048,576 rows.
  static let columns = 16_384
  static let rows = 1_048_576
  /// The cells held at most (filled or between filled ones), about 100 MB.
  static let cells = 4_000_000
  /// The longest text of one cell, in UTF-8 bytes (Excel's limit is 32,767 characters).
  static let textBytes = 1 << 17
  /// The most shared strings an xlsx may have.
  static let sharedStrings = 4_000_000

  static func tooMany(_ what: String, _ limit: Int, path: String) -> InputError {
    InputError("'\(path)' has more than \(limit) \(what), more than lifelog reads in a sheet")
  }
}

extension XMLStreamReader {
  /// The current element's name without its namespace prefix (`x:row` is `row`).
  var localName: Substring {
    let name = self.name
    return name.lastIndex(of: ":").map { name[name.index(after: $0)...] } ?? name[...]
  }

  /// Refuses a document type declaration: an xlsx or ods never has one, and its entity
  /// declarations are how XML bombs and external entities get in.
  func refuseDoctype(path: String, part: String) -> InputError {
    InputError(
      "'\(path)': \(part) declares a document type (<!DOCTYPE ...>), which no spreadsheet "
        + "writes; entity declarations are refused")
  }
}
