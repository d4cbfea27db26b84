/// The figures of the meal report's first page, the sheet a doctor reads first (in the PDF, and
/// at the top of the HTML and Markdown reports): when meals happen, the daytime gaps within the
/// target, the longest fasts, and the words the notes use most at each time of day.
///
/// Counted a day at a time by a ``Tally`` (the same days, in the same order, as
/// ``MealSummary``), so a streamed report and a built one give the same sheet. The median and
/// longest gap and the days fully within target are the ``MealSummary``'s.
public struct MealSheet: Sendable {
  /// One gap between two meals (the overnight gap too), longest first in ``longestFasts``.
  public struct Fast: Sendable, Hashable {
    public let minutes: Int
    public let from: LoggedTime
    public let to: LoggedTime
    public let overnight: Bool
  }

  /// A part of the day the note words are counted in, by the clock the meal was logged at.
  public enum Slot: CaseIterable, Sendable {
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

    /// The slot's name for people, in English: the message a ``Translation`` translates.
    public var label: String {
      switch self {
      case .morning: return "Morning (before 11:00)"
      case .midday: return "Midday (11:00–15:00)"
      case .afternoon: return "Afternoon (15:00–18:00)"
      case .evening: return "Evening (after 18:00)"
      }
    }
  }

  /// A frequent word of one slot's notes, with how many times it was written.
  public struct Word: Sendable, Hashable {
    public let word: String
    public let count: Int
  }

  /// How many of the longest fasts are listed, and words per slot.
  public static let fastCount = 5
  public static let wordCount = 5
  /// A "word" longer than this is no word a reader looks for (a pasted link, a run of letters),
  /// and would not fit the sheet's line: it is not counted.
  public static let longestWord = 30

  /// For each hour of the report day (0 is the hour `dayStartsAt` begins), the share of the days
  /// with meals that had one in that hour.
  public let hourShares: [Double]
  /// Gaps between two meals of one day.
  public let daytimeGaps: Int
  /// Of those, the ones within target: not flagged by the rule every format flags by
  /// (``MealGapFlag``: neither under `mealGapMinHours` nor over `mealGapHours`).
  public let daytimeGapsWithin: Int
  public let longestFasts: [Fast]
  /// Every slot, in order, with its most frequent words (none when its notes had none).
  public let words: [(slot: Slot, words: [Word])]

  /// The share of daytime gaps within target, in percent; nil without gaps.
  public var percentWithin: Double? {
    daytimeGaps == 0 ? nil : Double(daytimeGapsWithin) * 100 / Double(daytimeGaps)
  }

  /// The sheet of a whole diary.
  public init(_ report: MealReport) {
    var tally = Tally()
    for day in report.days.withMeals { tally.add(day) { report.note(of: $0) } }
    self.init(tally)
  }

  init(_ tally: Tally) {
    let daysWithMeals = max(tally.daysWithMeals, 1)
    hourShares = tally.hours.map { Double($0) / Double(daysWithMeals) }
    daytimeGaps = tally.daytimeGaps
    daytimeGapsWithin = tally.daytimeGapsWithin
    longestFasts = tally.longestFasts
    var counts = tally.counts
    for (slot, notes) in tally.notes {
      for (note, times) in notes {
        for word in Self.words(in: note) { counts[slot, default: [:]][word, default: 0] += times }
      }
    }
    words = Slot.allCases.map { slot in
      let ranked = (counts[slot] ?? [:]).sorted {
        $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
      }
      return (slot, ranked.prefix(Self.wordCount).map { Word(word: $0.key, count: $0.value) })
    }
  }

  /// The sheet's figures counted a day at a time, in the range's order.
  public struct Tally {
    fileprivate var hours = [Int](repeating: 0, count: 24)
    fileprivate var counts: [Slot: [String: Int]] = [:]
    /// How many times each short note was written in each slot.
    ///
    /// Split into words only when the sheet is made: notes repeat ("apple", "coffee"), and
    /// counting a note costs a fraction of splitting it. At most ``heldNoteLimit`` notes of at
    /// most ``heldNoteBytes`` are held; any other note is split when counted.
    fileprivate var notes: [Slot: [String: Int]] = [:]
    private var heldNotes = 0
    static let heldNoteLimit = 4096
    static let heldNoteBytes = 64
    fileprivate var daysWithMeals = 0
    fileprivate var daytimeGaps = 0
    fileprivate var daytimeGapsWithin = 0
    fileprivate var longestFasts: [Fast] = []
    private var previous: LoggedTime?

    public init() {}

    /// Counts `day`; `note` gives a meal's note.
    public mutating func add(_ day: MealDay, note: (Meal) -> String?) {
      guard !day.meals.isEmpty else { return }
      daysWithMeals += 1
      var seen = [Bool](repeating: false, count: 24)
      for (index, meal) in day.meals.enumerated() {
        let hour = min(max(meal.minuteOfDay / 60, 0), 23)
        if !seen[hour] {
          seen[hour] = true
          hours[hour] += 1
        }
        if let gap = meal.gapMinutes {
          daytimeGaps += 1
          if !meal.isFlagged { daytimeGapsWithin += 1 }
          if let previous {
            addFast(Fast(minutes: gap, from: previous, to: meal.time, overnight: false))
          }
        } else if index == 0, let overnight = day.overnightGapMinutes, let previous {
          addFast(Fast(minutes: overnight, from: previous, to: meal.time, overnight: true))
        }
        previous = meal.time
        if let text = note(meal), !text.isEmpty {
          count(note: text, in: Slot(clockHour: meal.time.local.hour))
        }
      }
    }

    private mutating func count(note text: String, in slot: Slot) {
      if text.utf8.count <= Self.heldNoteBytes {
        let known = notes[slot]?[text] != nil
        if known || heldNotes < Self.heldNoteLimit {
          if !known { heldNotes += 1 }
          notes[slot, default: [:]][text, default: 0] += 1
          return
        }
      }
      for word in MealSheet.words(in: text) { counts[slot, default: [:]][word, default: 0] += 1 }
    }

    /// Keeps the ``MealSheet/fastCount`` longest, longest first (the earlier first among equals).
    private mutating func addFast(_ fast: Fast) {
      guard
        longestFasts.count < MealSheet.fastCount
          || fast.minutes > (longestFasts.last?.minutes ?? 0)
      else { return }
      let position = longestFasts.firstIndex { $0.minutes < fast.minutes } ?? longestFasts.count
      longestFasts.insert(fast, at: position)
      if longestFasts.count > MealSheet.fastCount { longestFasts.removeLast() }
    }
  }

  /// Words too common to say anything, in the languages lifelog writes.
  static let commonWords: Set<String> = [
    "the", "and", "with", "for", "some", "nie", "się", "oraz", "bez", "czy", "jak", "ale",
  ]

  /// The note's words, lowercased: runs of letters 3 to ``longestWord`` long, common words left
  /// out.
  ///
  /// A note in ASCII (most are) is read byte by byte, with the same result: its letters are
  /// `A`–`Z` and `a`–`z`, one character each. Splitting by `Character` cost more than writing
  /// the rest of an HTML report.
  public static func words(in note: String) -> [String] {
    if note.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(in: note.utf8) }
    return note.lowercased().split { !$0.isLetter }.compactMap { word in
      (3...longestWord).contains(word.count) && !commonWords.contains(String(word))
        ? String(word) : nil
    }
  }

  private static func asciiWords(in note: String.UTF8View) -> [String] {
    var words: [String] = []
    var start = note.startIndex
    while start != note.endIndex {
      guard isASCIILetter(note[start]) else {
        note.formIndex(after: &start)
        continue
      }
      var end = note.index(after: start)
      while end != note.endIndex && isASCIILetter(note[end]) { note.formIndex(after: &end) }
      let run = note[start..<end]
      if (3...longestWord).contains(run.count) {
        // Letters only: setting 0x20 lowercases A–Z and keeps a–z.
        let word = String(decoding: run.lazy.map { $0 | 0x20 }, as: UTF8.self)
        if !commonWords.contains(word) { words.append(word) }
      }
      start = end
    }
    return words
  }

  private static func isASCIILetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }
}
