import LifelogCore

/// The figures on the first page of the PDF meal report, the sheet a doctor reads first: when
/// meals happen, the gaps against the target, the longest fasts, and the words the notes use most
/// at each time of day.
struct MealSheet {
  /// One gap between two meals (the overnight gap too), longest first in ``longestFasts``.
  struct Fast {
    let minutes: Int
    let from: LoggedTime
    let to: LoggedTime
    let overnight: Bool
  }

  /// A part of the day the note words are counted in, by the clock the meal was logged at.
  enum Slot: CaseIterable {
    case morning, midday, afternoon, evening

    /// Before 11:00 (from 04:00), 11:00 to 15:00, 15:00 to 18:00, 18:00 to 04:00.
    init(clockHour hour: Int) {
      switch hour {
      case 4..<11: self = .morning
      case 11..<15: self = .midday
      case 15..<18: self = .afternoon
      default: self = .evening
      }
    }

    var label: String {
      switch self {
      case .morning: return "Morning (before 11:00)"
      case .midday: return "Midday (11:00–15:00)"
      case .afternoon: return "Afternoon (15:00–18:00)"
      case .evening: return "Evening (after 18:00)"
      }
    }
  }

  /// How many of the longest fasts are listed, and words per slot.
  static let fastCount = 5
  static let wordCount = 5

  /// For each hour of the report day (0 is the hour `dayStartsAt` begins), the share of the days
  /// with meals that had one in that hour.
  private(set) var hourShares = [Double](repeating: 0, count: 24)
  private(set) var daytimeGaps = 0
  private(set) var daytimeGapsWithin = 0
  private(set) var longestFasts: [Fast] = []
  private(set) var words: [(slot: Slot, words: [(word: String, count: Int)])] = []

  /// Words too common to say anything, in the languages lifelog writes.
  static let commonWords: Set<String> = [
    "the", "and", "with", "for", "some", "nie", "się", "oraz", "bez", "czy", "jak", "ale",
  ]

  init(_ report: MealReport) {
    var hours = [Int](repeating: 0, count: 24)
    var counts: [Slot: [String: Int]] = [:]
    var previous: Meal?
    let limit = report.settings.mealGapMinutes
    for day in report.days.withMeals {
      var seen = [Bool](repeating: false, count: 24)
      for (index, meal) in day.meals.enumerated() {
        let hour = min(max(meal.minuteOfDay / 60, 0), 23)
        if !seen[hour] {
          seen[hour] = true
          hours[hour] += 1
        }
        if let gap = meal.gapMinutes {
          daytimeGaps += 1
          if Double(gap) <= limit { daytimeGapsWithin += 1 }
          if let previous {
            addFast(Fast(minutes: gap, from: previous.time, to: meal.time, overnight: false))
          }
        } else if index == 0, let overnight = day.overnightGapMinutes, let previous {
          addFast(Fast(minutes: overnight, from: previous.time, to: meal.time, overnight: true))
        }
        previous = meal
        if let note = report.note(of: meal), !note.isEmpty {
          let slot = Slot(clockHour: meal.time.local.hour)
          for word in Self.words(in: note) { counts[slot, default: [:]][word, default: 0] += 1 }
        }
      }
    }
    let daysWithMeals = max(report.days.withMeals.count, 1)
    hourShares = hours.map { Double($0) / Double(daysWithMeals) }
    words = Slot.allCases.map { slot in
      let ranked = (counts[slot] ?? [:]).sorted {
        $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
      }
      return (slot, ranked.prefix(Self.wordCount).map { ($0.key, $0.value) })
    }
  }

  /// Keeps the ``fastCount`` longest, longest first (the earlier first among equals).
  private mutating func addFast(_ fast: Fast) {
    guard longestFasts.count < Self.fastCount || fast.minutes > (longestFasts.last?.minutes ?? 0)
    else { return }
    let position = longestFasts.firstIndex { $0.minutes < fast.minutes } ?? longestFasts.count
    longestFasts.insert(fast, at: position)
    if longestFasts.count > Self.fastCount { longestFasts.removeLast() }
  }

  /// The note's words, lowercased: runs of letters at least three long, common words left out.
  static func words(in note: String) -> [String] {
    note.lowercased().split { !$0.isLetter }.compactMap { word in
      word.count >= 3 && !commonWords.contains(String(word)) ? String(word) : nil
    }
  }
}
