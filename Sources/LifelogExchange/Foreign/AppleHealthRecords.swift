import LifelogCore

/// Import rows from Apple Health's `export.xml` (or the `export.zip` holding it), read through
/// libxml2's streaming reader: exercise entries from `Workout` elements, one sleep entry per night
/// from `HKCategoryTypeIdentifierSleepAnalysis` records, meal entries from
/// `HKCorrelationTypeIdentifierFood` correlations.
///
/// Everything else (the millions of step and heart-rate records) is passed over.
final class AppleHealthRecords: ForeignRecords {
  /// Asleep segments this close together (seconds) are one night: the awake minutes between them
  /// are left out of its duration.
  static let nightGap: Int64 = 2 * 3600
  static let asleepValues: Set<String> = [
    "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified",
    "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
    "HKCategoryValueSleepAnalysisAsleepREM",
  ]

  private let reader: XMLStreamReader
  private let context: ForeignImportContext
  private let ids = ForeignRecordIDs(.appleHealth)
  /// Keeps the zip's reader alive while libxml2 reads from it.
  private let zip: ZipEntryReader?
  private var ready: [Result<ImportRow, RowError>] = []
  private var night: Night?
  private var workout: Workout?
  private var food: Food?
  private var ended = false
  var notices: [String] = []

  private struct Night {
    var line: Int
    var start: LoggedTime
    var end: Int64
    var asleep: Int64
  }

  private struct Workout {
    var line: Int
    var type: String
    var start: LoggedTime
    var end: LoggedTime
    var kilometres: Double?
  }

  private struct Food {
    var line: Int
    var start: LoggedTime
    var names: [String] = []
    var kcal: Double?
  }

  /// Opens `export.xml`, or the `export.xml` inside a zip (which must be a named file).
  static func open(
    _ input: ChunkedReader, path: String?, context: ForeignImportContext
  ) throws -> any ForeignRecords {
    if try input.firstByte() == UInt8(ascii: "P") {
      guard let path else {
        throw InputError(
          "export.zip cannot be read from standard input (its directory is at its end); "
            + "name the file, or unzip it and pipe in export.xml")
      }
      let zip = try ZipEntryReader(path: path, entry: "export.xml")
      return try AppleHealthRecords(reader: XMLStreamReader(fill: zip.fill), zip: zip, context)
    }
    var offset = 0
    let reader = try XMLStreamReader { buffer in
      if offset == input.count {
        offset = 0
        guard try input.refill() else { return 0 }
      }
      let count = min(buffer.count, input.count - offset)
      buffer.copyMemory(
        from: UnsafeRawBufferPointer(
          UnsafeBufferPointer(rebasing: input.chunk[offset..<offset + count])))
      offset += count
      return count
    }
    return AppleHealthRecords(reader: reader, zip: nil, context)
  }

  private init(reader: XMLStreamReader, zip: ZipEntryReader?, _ context: ForeignImportContext) {
    self.reader = reader
    self.zip = zip
    self.context = context
  }

  func next() throws -> Result<ImportRow, RowError>? {
    while ready.isEmpty && !ended {
      guard let event = try reader.next() else {
        ended = true
        if let night { finish(night) }
        break
      }
      do throws(InputError) {
        switch event {
        case .start: try start()
        case .end: try end()
        }
      } catch {
        ready.append(.failure(RowError(line: reader.line, message: error.message)))
        workout = nil
        food = nil
      }
    }
    return ready.isEmpty ? nil : ready.removeFirst()
  }

  private func start() throws(InputError) {
    let depth = reader.depth
    if depth == 1 {
      if reader.isNamed("Workout") {
        workout = try newWorkout()
      } else if reader.isNamed("Record") {
        if reader.attribute("type") == "HKCategoryTypeIdentifierSleepAnalysis" { try sleep() }
      } else if reader.isNamed("Correlation") {
        if reader.attribute("type") == "HKCorrelationTypeIdentifierFood" {
          food = Food(line: reader.line, start: try time("startDate"))
        }
      }
    } else if depth == 2 {
      if workout != nil, workout?.kilometres == nil, reader.isNamed("WorkoutStatistics"),
        reader.attribute("type")?.hasPrefix("HKQuantityTypeIdentifierDistance") == true
      {
        workout?.kilometres = try kilometres(reader.attribute("sum"), reader.attribute("unit"))
      } else if food != nil, reader.isNamed("MetadataEntry"),
        reader.attribute("key") == "HKFoodType", let name = reader.attribute("value")
      {
        food?.names.append(name)
      } else if food != nil, reader.isNamed("Record"),
        reader.attribute("type") == "HKQuantityTypeIdentifierDietaryEnergyConsumed"
      {
        food?.kcal = try number(reader.attribute("value"), "value")
      }
    }
  }

  private func end() throws(InputError) {
    guard reader.depth == 1 else { return }
    if let workout, reader.isNamed("Workout") {
      self.workout = nil
      ready.append(.success(row(workout)))
    } else if let food, reader.isNamed("Correlation") {
      self.food = nil
      ready.append(.success(row(food)))
    }
  }

  // MARK: - Elements

  private func newWorkout() throws(InputError) -> Workout {
    guard let type = reader.attribute("workoutActivityType") else {
      throw InputError("the Workout has no workoutActivityType")
    }
    let start = try time("startDate")
    let end = try time("endDate")
    guard end.instant >= start.instant else {
      throw InputError("the Workout ends before it starts")
    }
    var workout = Workout(line: reader.line, type: type, start: start, end: end)
    if let distance = reader.attribute("totalDistance") {
      workout.kilometres = try kilometres(distance, reader.attribute("totalDistanceUnit"))
    }
    return workout
  }

  /// Adds an asleep segment to the night it belongs to, finishing the night before when it is a
  /// new one (the records of one type come in time order in the export).
  private func sleep() throws(InputError) {
    guard let value = reader.attribute("value"), Self.asleepValues.contains(value) else { return }
    let start = try time("startDate")
    let end = try time("endDate").instant
    guard end >= start.instant else { throw InputError("the sleep record ends before it starts") }
    if var night, start.instant >= night.start.instant,
      start.instant <= night.end + Self.nightGap
    {
      night.asleep += max(0, end - max(start.instant, night.end))
      night.end = max(night.end, end)
      self.night = night
      return
    }
    if let night { finish(night) }
    night = Night(line: reader.line, start: start, end: end, asleep: end - start.instant)
  }

  private func finish(_ night: Night) {
    var row = ImportRow(line: night.line)
    row.id = ids.next("sleep", String(night.start.instant))
    row.at = night.start.iso8601
    row.activity = "sleep"
    row.kind = ActivityKind.sleep.rawValue
    row.duration = String(night.asleep)
    ready.append(.success(row))
    self.night = nil
  }

  private func row(_ workout: Workout) -> ImportRow {
    var row = ImportRow(line: workout.line)
    let activity = Self.activityName(workout.type)
    row.id = ids.next(workout.type, String(workout.start.instant))
    row.at = workout.start.iso8601
    row.activity = activity
    row.kind = ActivityKind.exercise.rawValue
    row.duration = String(workout.end.instant - workout.start.instant)
    if let kilometres = workout.kilometres, unit(of: activity, or: "km") == "km" {
      row.unit = "km"
      row.quantity = JSONText.number((kilometres * 1000).rounded() / 1000)
    }
    return row
  }

  private func row(_ food: Food) -> ImportRow {
    var row = ImportRow(line: food.line)
    row.id = ids.next("food", String(food.start.instant), food.names.joined(separator: "\n"))
    row.at = food.start.iso8601
    row.activity = "meal"
    row.kind = ActivityKind.meal.rawValue
    row.note = food.names.isEmpty ? nil : food.names.joined(separator: "; ")
    if let kcal = food.kcal, unit(of: "meal", or: "kcal") == "kcal" {
      row.unit = "kcal"
      row.quantity = JSONText.number((kcal * 10).rounded() / 10)
    }
    return row
  }

  /// The unit of the log's activity `name`, or `fallback` for one the import creates.
  private func unit(of name: String, or fallback: String) -> String {
    context.activities[ActivityName.key(name)].map { $0.unit ?? "" } ?? fallback
  }

  /// `HKWorkoutActivityTypeTraditionalStrengthTraining` → `traditional strength training`.
  static func activityName(_ type: String) -> String {
    let prefix = "HKWorkoutActivityType"
    let base = type.hasPrefix(prefix) ? String(type.dropFirst(prefix.count)) : type
    var name = ""
    for character in base {
      if character.isUppercase, !name.isEmpty { name.append(" ") }
      name.append(contentsOf: character.lowercased())
    }
    return name.isEmpty ? "workout" : String(name.prefix(ActivityName.maximumLength))
  }

  // MARK: - Values

  /// A date attribute: `2023-10-01 07:00:00 +0200`, kept with the offset it was recorded in.
  private func time(_ key: String) throws(InputError) -> LoggedTime {
    guard let text = reader.attribute(key) else { throw InputError("no \(key)") }
    let bytes = Array(text.utf8)
    guard bytes.count == 25, bytes[10] == 0x20, bytes[19] == 0x20 else {
      throw InputError("\(key) is '\(text)', not a date such as '2023-10-01 07:00:00 +0200'")
    }
    let iso =
      String(decoding: bytes[0..<10], as: UTF8.self) + "T"
      + String(decoding: bytes[11..<19], as: UTF8.self)
      + String(decoding: bytes[20..<23], as: UTF8.self) + ":"
      + String(decoding: bytes[23..<25], as: UTF8.self)
    guard let time = ISO8601Text.parseExact(iso) else {
      throw InputError("\(key) is '\(text)', not a date such as '2023-10-01 07:00:00 +0200'")
    }
    return time
  }

  private func number(_ text: String?, _ key: String) throws(InputError) -> Double {
    guard let text, let value = Double(text), value.isFinite, value >= 0, value < 1e9 else {
      throw InputError("\(key) is '\(text ?? "")', not a number")
    }
    return value
  }

  private func kilometres(_ text: String?, _ unit: String?) throws(InputError) -> Double? {
    let value = try number(text, "the distance")
    switch unit ?? "km" {
    case "km": return value
    case "m": return value / 1000
    case "mi": return value * 1.609344
    case "yd": return value * 0.0009144
    default: return nil  // a unit not understood: the duration alone is imported
    }
  }
}
