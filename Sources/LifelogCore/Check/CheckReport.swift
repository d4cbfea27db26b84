/// What `lifelog check` found: how much it looked at, and each problem in plain words.
///
/// A damaged log can hold a problem in every row; only the first ``problemsPerCode`` of each kind
/// are kept (and how many more there were), so a report stays readable and its memory bounded.
public struct CheckReport: Sendable {
  /// One thing that is wrong.
  public struct Problem: Equatable, Sendable {
    /// Where it is: `log`, `log: entry 92ae6d22-…`, `remote 'usb': devices/…/0000000003.batch`.
    public var place: String
    /// A stable word for scripts: `integrity`, `stamp`, `activity`, `outbox`, `damaged`, `gap`,
    /// `missing`, `differs`, … (docs/cli.md lists them).
    public var code: String
    /// What is wrong, as a sentence without a final period.
    public var what: String

    public init(place: String, code: String, what: String) {
      self.place = place
      self.code = code
      self.what = what
    }
  }

  /// How many problems of one code are listed; the rest are only counted.
  public static let problemsPerCode = 50

  /// What was checked, in the order it was first counted (`entries`, `activities`, …).
  public private(set) var checked: [(name: String, count: Int)] = []
  public private(set) var problems: [Problem] = []
  /// Problems found beyond ``problemsPerCode`` of their code, per code.
  public private(set) var omitted: [String: Int] = [:]
  private var listedPerCode: [String: Int] = [:]

  public init() {}

  /// Whether nothing is wrong.
  public var ok: Bool { problems.isEmpty }

  /// How many problems were found, listed or not.
  public var problemCount: Int { problems.count + omitted.values.reduce(0, +) }

  /// Adds `count` to what was checked under `name`.
  public mutating func count(_ name: String, _ count: Int = 1) {
    if let index = checked.firstIndex(where: { $0.name == name }) {
      checked[index].count += count
    } else {
      checked.append((name, count))
    }
  }

  /// How many of `name` were checked.
  public func checkedCount(_ name: String) -> Int {
    checked.first { $0.name == name }?.count ?? 0
  }

  public mutating func add(_ place: String, _ code: String, _ what: String) {
    let listed = listedPerCode[code, default: 0]
    guard listed < CheckReport.problemsPerCode else {
      omitted[code, default: 0] += 1
      return
    }
    listedPerCode[code] = listed + 1
    problems.append(Problem(place: place, code: code, what: what))
  }

  /// Adds everything `other` found.
  public mutating func merge(_ other: CheckReport) {
    for (name, count) in other.checked { self.count(name, count) }
    for problem in other.problems { add(problem.place, problem.code, problem.what) }
    for (code, count) in other.omitted { omitted[code, default: 0] += count }
  }
}
