import CLifelogQR

/// A QR code drawn in a terminal with half blocks, two rows of modules per line, inside the quiet
/// zone scanners need; light modules are drawn, as `qrencode -t UTF8` does, for a dark terminal.
enum QRCodeText {
  /// The largest QR code (version 40): 177 × 177 modules.
  static let maximumModules = 177 * 177
  static let quietZone = 2

  /// The lines of the code for `text`.
  ///
  /// - Throws: ``ConfigurationError`` when libqrencode cannot be loaded or the text does not fit.
  static func lines(for text: String) throws -> [String] {
    var modules = [UInt8](repeating: 0, count: maximumModules)
    var width: Int32 = 0
    var error = [CChar](repeating: 0, count: 256)
    let status = modules.withUnsafeMutableBufferPointer { buffer in
      lifelog_qr_encode(text, buffer.baseAddress, buffer.count, &width, &error, error.count)
    }
    guard status == 0 else {
      let message = String(
        decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ConfigurationError(
        "Cannot draw the QR code: \(message); the link above works without it")
    }
    let side = Int(width)
    func dark(_ x: Int, _ y: Int) -> Bool {
      let (mx, my) = (x - quietZone, y - quietZone)
      guard mx >= 0, my >= 0, mx < side, my < side else { return false }
      return modules[my * side + mx] != 0
    }
    let full = side + 2 * quietZone
    var lines: [String] = []
    for y in stride(from: 0, to: full, by: 2) {
      var line = ""
      for x in 0..<full {
        switch (dark(x, y), y + 1 < full ? dark(x, y + 1) : true) {
        case (false, false): line += "█"
        case (false, true): line += "▀"
        case (true, false): line += "▄"
        case (true, true): line += " "
        }
      }
      lines.append(line)
    }
    return lines
  }
}
