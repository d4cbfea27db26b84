import CLifelogPDF
import LifelogCore

/// A PDF being drawn with cairo, its text laid out with pango (Sources/CLifelogPDF loads both
/// with dlopen): real text, fonts embedded, in points from the top left of the page.
///
/// The PDF is made in memory and handed over by ``finish()``, so it reaches its file through
/// ``OutputFile`` like every report (atomically, readable only by its owner).
final class PDFCanvas {
  /// The fonts the report uses: DejaVu (Debian's fonts-dejavu-core) has every Polish letter.
  ///
  /// Sizes are in `px`, which on a PDF page are points (a size in points would be scaled by
  /// pango's 96 dpi).
  enum Font: String {
    case body = "DejaVu Sans 9px"
    case bold = "DejaVu Sans Bold 9px"
    case small = "DejaVu Sans 7.5px"
    case heading = "DejaVu Sans Bold 12.5px"
    case title = "DejaVu Sans Bold 21px"
    case figure = "DejaVu Sans Bold 19px"
  }

  enum Alignment: Int32 {
    case left = 0, centre = 1, right = 2
  }

  /// The letters a font must have, checked before drawing: every Polish one.
  static let requiredLetters = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ"

  let paper: Paper
  private var pdf: OpaquePointer?

  /// Loads cairo and pango and starts the PDF.
  ///
  /// - Parameter date: its creation and modification date (ISO 8601): the report's "now", so the
  ///   same log and `LIFELOG_NOW` give the same bytes.
  /// - Throws: ``PDFError`` naming the Debian package to install when a library or a font with
  ///   Polish letters is missing.
  init(paper: Paper, date: String, title: String, author: String) throws(PDFError) {
    self.paper = paper
    var error = [CChar](repeating: 0, count: 512)
    guard lifelog_pdf_load(&error, error.count) == 0 else {
      throw PDFError(unavailable: Self.message(error))
    }
    guard
      let pdf = lifelog_pdf_create(
        paper.width, paper.height, date, title, author, &error, error.count)
    else {
      throw PDFError(failed: Self.message(error))
    }
    self.pdf = pdf
    if lifelog_pdf_missing_glyphs(pdf, Self.requiredLetters, Font.body.rawValue) > 0 {
      _ = try? finish()
      throw PDFError(
        unavailable:
          "no installed font has the letters of every language lifelog writes; install Debian's fonts-dejavu-core package"
      )
    }
  }

  deinit { _ = try? finish() }

  /// The C string the shim wrote into `buffer`.
  private static func message(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  func colour(_ colour: Colour) {
    guard let pdf else { return }
    lifelog_pdf_colour(pdf, colour.red, colour.green, colour.blue)
  }

  func fill(x: Double, y: Double, width: Double, height: Double, _ colour: Colour) {
    guard let pdf else { return }
    self.colour(colour)
    lifelog_pdf_fill(pdf, x, y, width, height)
  }

  func line(
    from start: (Double, Double), to end: (Double, Double), width: Double = 0.5,
    _ colour: Colour, dashed: Bool = false
  ) {
    guard let pdf else { return }
    self.colour(colour)
    lifelog_pdf_line(pdf, start.0, start.1, end.0, end.1, width, dashed ? 1 : 0)
  }

  /// Draws `text` with its top left at (x, y), on one line cut with an ellipsis at `width`
  /// (or wrapped when `wraps`); returns its height.
  @discardableResult
  func text(
    _ text: String, _ font: Font = .body, x: Double, y: Double, width: Double,
    align: Alignment = .left, wraps: Bool = false, _ colour: Colour = .ink
  ) -> Double {
    guard let pdf else { return 0 }
    self.colour(colour)
    return lifelog_pdf_text(pdf, text, font.rawValue, x, y, width, align.rawValue, wraps ? 0 : 1, 1)
  }

  /// The height `text` would take wrapped at `width`.
  func height(_ text: String, _ font: Font, width: Double) -> Double {
    guard let pdf else { return 0 }
    return lifelog_pdf_text(pdf, text, font.rawValue, 0, 0, width, 0, 0, 0)
  }

  func width(_ text: String, _ font: Font) -> Double {
    guard let pdf else { return 0 }
    return lifelog_pdf_text_width(pdf, text, font.rawValue)
  }

  /// Ends the page; what is drawn next is on a new one.
  func nextPage() {
    guard let pdf else { return }
    lifelog_pdf_page(pdf)
  }

  /// Finishes the PDF and returns its bytes.
  func finish() throws(PDFError) -> [UInt8] {
    guard let pdf else { return [] }
    self.pdf = nil
    var bytes: UnsafeMutablePointer<UInt8>?
    var length = 0
    var error = [CChar](repeating: 0, count: 512)
    guard lifelog_pdf_finish(pdf, &bytes, &length, &error, error.count) == 0, let bytes else {
      throw PDFError(failed: Self.message(error))
    }
    defer { lifelog_pdf_free_bytes(bytes) }
    return Array(UnsafeBufferPointer(start: bytes, count: length))
  }
}

/// A colour, 0 to 1 each; the report's few are chosen to stay apart in grey-scale print.
struct Colour {
  let red: Double
  let green: Double
  let blue: Double

  static let ink = Colour(red: 0.1, green: 0.1, blue: 0.12)
  static let muted = Colour(red: 0.42, green: 0.42, blue: 0.45)
  static let rule = Colour(red: 0.82, green: 0.82, blue: 0.84)
  static let band = Colour(red: 0.95, green: 0.95, blue: 0.96)
  static let bar = Colour(red: 0.33, green: 0.43, blue: 0.55)
  /// A gap within the target: light (grey 80% in print).
  static let within = Colour(red: 0.66, green: 0.84, blue: 0.70)
  /// A gap over the target: dark (grey 25% in print), and drawn taller.
  static let over = Colour(red: 0.72, green: 0.13, blue: 0.13)
  /// A gap under `mealGapMinHours`: blue (grey 35% in print), drawn between the two in height.
  static let short = Colour(red: 0.16, green: 0.36, blue: 0.72)
}

/// The page size: A4, or US Letter where the locale uses it (or `--paper`).
enum Paper: String, CaseIterable {
  case a4, letter

  var width: Double { self == .a4 ? 595.28 : 612 }
  var height: Double { self == .a4 ? 841.89 : 792 }

  /// `--paper` as given.
  ///
  /// - Throws: ``UsageError`` naming the sizes there are.
  init(parsing text: String) throws(UsageError) {
    guard let paper = Paper(rawValue: text.lowercased()) else {
      throw UsageError("Unknown paper size '\(text)'; use a4 or letter")
    }
    self = paper
  }
}

/// A PDF that cannot be made: a library or font is missing (exit 69), or cairo failed (exit 1).
struct PDFError: Error, CustomStringConvertible {
  let description: String
  let isUnavailable: Bool

  init(unavailable message: String) {
    description = "Cannot make the PDF: " + message
    isUnavailable = true
  }

  init(failed message: String) {
    description = "Cannot make the PDF: " + message
    isUnavailable = false
  }
}
