import LifelogCore

/// Import rows from Cronometer's "servings" CSV export (`Day`, `Time`, `Group`, `Food Name`,
/// `Amount`, `Energy (kcal)`, then nutrient columns, which are not read).
///
/// One meal entry per day, time and group: the servings of one meal are consecutive rows of the
/// export, so a run of rows with the same day, time and group is one entry, its foods the note
/// (`Oats (1.00 cup); Milk (250 ml)`) and its kcal the quantity when the activity is counted in
/// kcal (an activity the import creates is). The id comes from the day, group and time, and the
/// meal's ordinal among the runs of the file with the same three (``ForeignRecordIDs``).
final class CronometerRecords: ForeignRecords {
  /// When a serving has no time: the hour the group is usually eaten at.
  static let defaultTimes = [
    "breakfast": "08:00", "lunch": "12:30", "dinner": "19:00", "snack": "15:00",
  ]
  static let groups = ["breakfast": "breakfast", "lunch": "lunch", "dinner": "dinner"]

  private let reader: CSVReader
  private let context: ForeignImportContext
  private let ids = ForeignRecordIDs(.cronometer)
  private var columns: [Column: Int]?
  private var meal: Meal?
  private var ended = false
  var notices: [String] = []

  private enum Column: String, CaseIterable {
    case day = "day", time = "time", group = "group", food = "food name", amount = "amount"
    case energy = "energy (kcal)"
  }

  /// The servings read so far of the meal being gathered.
  private struct Meal {
    var line: Int
    var day: String
    var time: String
    var group: String
    var foods: [String] = []
    var kcal = 0.0
  }

  init(_ input: ChunkedReader, context: ForeignImportContext) {
    reader = CSVReader(input)
    self.context = context
  }

  func next() throws -> Result<ImportRow, RowError>? {
    let columns = try self.columns ?? readHeader()
    while !ended {
      guard try reader.next() else {
        ended = true
        break
      }
      do throws(InputError) {
        let serving = try self.serving(columns)
        if var meal, meal.day == serving.day, meal.time == serving.time,
          meal.group == serving.group
        {
          meal.foods += serving.foods
          meal.kcal += serving.kcal
          self.meal = meal
          continue
        }
        let finished = meal
        meal = serving
        if let finished { return .success(row(finished)) }
      } catch {
        return .failure(RowError(line: reader.line, message: error.message))
      }
    }
    guard let finished = meal else { return nil }
    meal = nil
    return .success(row(finished))
  }

  private func serving(_ columns: [Column: Int]) throws(InputError) -> Meal {
    if let problem = reader.problem { throw InputError(problem) }
    func field(_ column: Column) throws(InputError) -> String {
      guard let index = columns[column], index < reader.fieldCount else { return "" }
      guard let text = reader.field(index) else {
        throw InputError("the \(column.rawValue) field is not UTF-8 text")
      }
      return text.trimmingSpaces()
    }
    let day = try field(.day)
    guard !day.isEmpty else { throw InputError("the Day field is empty") }
    let group = try field(.group)
    let food = try field(.food)
    guard !food.isEmpty else { throw InputError("the Food Name field is empty") }
    let amount = try field(.amount)
    let energy = try field(.energy)
    var kcal = 0.0
    if !energy.isEmpty {
      guard let value = Double(energy), value.isFinite, value >= 0, value < 1e6 else {
        throw InputError("Energy (kcal) is '\(energy)', not a number of kcal")
      }
      kcal = value
    }
    var meal = Meal(line: reader.line, day: day, time: try field(.time), group: group)
    meal.foods = [amount.isEmpty ? food : "\(food) (\(amount))"]
    meal.kcal = kcal
    return meal
  }

  private func row(_ meal: Meal) -> ImportRow {
    let lowered = meal.group.lowercased()
    let activity =
      lowered.hasPrefix("snack")
      ? "snack" : Self.groups[lowered] ?? (lowered.isEmpty ? "meal" : lowered)
    var row = ImportRow(line: meal.line)
    row.id = ids.next(meal.day, meal.group, meal.time)
    let time = meal.time.isEmpty ? Self.defaultTimes[activity] ?? "12:00" : meal.time
    row.at = "\(meal.day) \(time)"
    row.activity = activity
    row.kind = ActivityKind.meal.rawValue
    row.unit = "kcal"
    row.note = meal.foods.joined(separator: "; ")
    let unit = context.activities[ActivityName.key(activity)].map { $0.unit ?? "" } ?? "kcal"
    if unit == "kcal" { row.quantity = JSONText.number((meal.kcal * 10).rounded() / 10) }
    return row
  }

  private func readHeader() throws -> [Column: Int] {
    guard try reader.next() else {
      throw InputError("The input is empty; a Cronometer servings export starts with its header")
    }
    var columns: [Column: Int] = [:]
    for index in 0..<reader.fieldCount {
      let name = (reader.field(index) ?? "").trimmingSpaces().lowercased()
      if let column = Column(rawValue: name), columns[column] == nil { columns[column] = index }
    }
    for required in [Column.day, .group, .food] where columns[required] == nil {
      throw InputError(
        "line \(reader.line) (the header): no '\(required.rawValue)' column; is this "
          + "Cronometer's servings export (Day, Time, Group, Food Name, Amount, Energy (kcal))?")
    }
    self.columns = columns
    return columns
  }
}
