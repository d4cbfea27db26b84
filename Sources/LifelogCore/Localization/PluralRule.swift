/// The plural rule of a gettext catalog: the `plural=` C expression of its `Plural-Forms` header,
/// parsed once and evaluated for each count, so the catalog decides the form ("1 posiłek,
/// 2 posiłki, 5 posiłków, 22 posiłki"), not code written for one language.
///
/// The subset gettext uses: the variable `n`, whole numbers, `( )`, `! * / % + - < <= > >= == !=
/// && || ?:` with C's precedence. Division or remainder by zero gives 0 instead of trapping, and
/// arithmetic wraps, so a hostile header cannot stop the program.
public struct PluralRule: Sendable {
  /// How many forms the catalog gives each plural message.
  public let count: Int
  /// The most forms a rule may have (`nplurals`): no language has more than six.
  public static let maximumForms = 6
  private let expression: Expression

  /// `n != 1`, two forms: English and the catalogs without a header.
  public static let english = PluralRule(count: 2, expression: .binary("!=", .n, .number(1)))

  private init(count: Int, expression: Expression) {
    self.count = count
    self.expression = expression
  }

  /// Parses a header value such as `nplurals=3; plural=(n==1 ? 0 : 1);`.
  ///
  /// - Throws: ``InputError`` naming what is wrong.
  public init(header: String) throws(InputError) {
    guard header.utf8.count <= 1000 else { throw InputError("Plural-Forms is too long") }
    var count: Int?
    var source: String?
    for part in header.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
      guard pair.count == 2 else { continue }
      if pair[0] == "nplurals" { count = Int(pair[1]) }
      if pair[0] == "plural" { source = pair[1] }
    }
    guard let count, (1...Self.maximumForms).contains(count), let source else {
      throw InputError(
        "Plural-Forms needs nplurals (1 to 6) and plural, such as 'nplurals=2; plural=n != 1;'")
    }
    var parser = Parser(Array(source.utf8))
    self.init(count: count, expression: try parser.whole())
  }

  /// Which form (0 to ``count`` - 1) to use for `n`; a rule that answers out of range gives the
  /// last form.
  public func form(for n: Int) -> Int {
    let value = expression.value(n: Int64(clamping: n))
    return value >= 0 && value < Int64(count) ? Int(value) : count - 1
  }

  fileprivate indirect enum Expression: Sendable {
    case n
    case number(Int64)
    case not(Expression)
    case binary(String, Expression, Expression)
    case choice(Expression, Expression, Expression)

    func value(n: Int64) -> Int64 {
      switch self {
      case .n: return n
      case .number(let value): return value
      case .not(let operand): return operand.value(n: n) == 0 ? 1 : 0
      case .choice(let condition, let yes, let no):
        return condition.value(n: n) != 0 ? yes.value(n: n) : no.value(n: n)
      case .binary(let operation, let left, let right):
        let a = left.value(n: n)
        if operation == "&&" { return a != 0 && right.value(n: n) != 0 ? 1 : 0 }
        if operation == "||" { return a != 0 || right.value(n: n) != 0 ? 1 : 0 }
        let b = right.value(n: n)
        switch operation {
        case "*": return a &* b
        case "/": return b == 0 || (a == .min && b == -1) ? 0 : a / b
        case "%": return b == 0 || (a == .min && b == -1) ? 0 : a % b
        case "+": return a &+ b
        case "-": return a &- b
        case "<": return a < b ? 1 : 0
        case "<=": return a <= b ? 1 : 0
        case ">": return a > b ? 1 : 0
        case ">=": return a >= b ? 1 : 0
        case "==": return a == b ? 1 : 0
        default: return a != b ? 1 : 0
        }
      }
    }
  }

  /// Recursive descent over C's precedence levels, nested at most ``maximumDepth`` deep.
  private struct Parser {
    static let maximumDepth = 50
    static let levels: [[String]] = [
      ["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"], ["*", "/", "%"],
    ]
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func whole() throws(InputError) -> Expression {
      let expression = try choice()
      skipSpaces()
      guard index == bytes.count else { throw failure() }
      return expression
    }

    private mutating func choice() throws(InputError) -> Expression {
      depth += 1
      defer { depth -= 1 }
      guard depth <= Self.maximumDepth else { throw InputError("Plural-Forms nests too deep") }
      let condition = try binary(level: 0)
      guard take("?") else { return condition }
      let yes = try choice()
      guard take(":") else { throw failure() }
      return .choice(condition, yes, try choice())
    }

    private mutating func binary(level: Int) throws(InputError) -> Expression {
      guard level < Self.levels.count else { return try unary() }
      var left = try binary(level: level + 1)
      while let operation = Self.levels[level].first(where: { take($0) }) {
        left = .binary(operation, left, try binary(level: level + 1))
      }
      return left
    }

    private mutating func unary() throws(InputError) -> Expression {
      if take("!") {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw InputError("Plural-Forms nests too deep") }
        return .not(try unary())
      }
      if take("(") {
        let inner = try choice()
        guard take(")") else { throw failure() }
        return inner
      }
      skipSpaces()
      if index < bytes.count, bytes[index] == UInt8(ascii: "n") {
        index += 1
        return .n
      }
      var value: Int64 = 0
      let start = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        let (product, overflow) = value.multipliedReportingOverflow(by: 10)
        guard !overflow, index - start < 18 else { throw failure() }
        value = product + Int64(bytes[index] - UInt8(ascii: "0"))
        index += 1
      }
      guard index > start else { throw failure() }
      return .number(value)
    }

    /// Takes `token` when it comes next; `<` is not taken from `<=`, nor `!` from `!=`.
    private mutating func take(_ token: String) -> Bool {
      skipSpaces()
      let token = Array(token.utf8)
      guard index + token.count <= bytes.count, Array(bytes[index..<index + token.count]) == token
      else { return false }
      let next = index + token.count < bytes.count ? bytes[index + token.count] : 0
      if token.count == 1,
        [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "!"), UInt8(ascii: "=")]
          .contains(token[0]), next == UInt8(ascii: "=")
      {
        return false
      }
      index += token.count
      return true
    }

    private mutating func skipSpaces() {
      while index < bytes.count,
        bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
      {
        index += 1
      }
    }

    private func failure() -> InputError {
      InputError("Plural-Forms has an expression lifelog cannot read at character \(index + 1)")
    }
  }
}
