import LifelogCore

/// The options for an entry's fields that `add` and `edit` share: the same names, read in one
/// place (``EntryFieldValues``), with help worded for logging a new entry or changing one.
struct EntryFieldOptions: Sendable {
  let at: OptionSpec
  let duration: OptionSpec
  let quantity: OptionSpec
  let note: OptionSpec
  let tag: OptionSpec

  init(
    at: String, atDefault: String? = nil, duration: String, quantity: String, note: String,
    tag: String
  ) {
    self.at = OptionSpec(["--at"], value: "time", help: at, default: atDefault)
    self.duration = OptionSpec(["--duration"], value: "duration", help: duration)
    self.quantity = OptionSpec(["--qty"], value: "number", help: quantity)
    self.note = OptionSpec(["--note"], value: "text", help: note)
    self.tag = OptionSpec(["--tag"], value: "tag", help: tag, repeatable: true)
  }

  /// `add`'s.
  static let adding = EntryFieldOptions(
    at: "When: now, 08:15, 8am, 'yesterday 19:30', 'mon 12:00', -2h, ISO 8601.", atDefault: "now",
    duration: "How long: 45m, 1h30m, 90s, 1:30.", quantity: "How much, in the activity's unit.",
    note: "The note, as 'edit' takes it (or as words).", tag: "A tag (one word).")

  /// `edit`'s: `none` clears a duration or quantity.
  static let changing = EntryFieldOptions(
    at: "Change when it happened (a bare time such as 13:15 keeps its day).",
    duration: "Change how long it took (or none).", quantity: "Change the quantity (or none).",
    note: "Replace the note.", tag: "Replace the tags with these.")
}

/// The entry fields `add` and `edit` share, read and checked from the command line.
///
/// Each is nil when its option was not given; `edit` also accepts `none` to clear a field.
struct EntryFieldValues {
  var time: LoggedTime?
  var duration: Int??
  var note: String??
  var quantity: Double??
  var tags: [String]?

  init(
    _ arguments: ParsedArguments, options: EntryFieldOptions, note: String?, parser: TimeParser,
    allowsClearing: Bool = false
  ) throws {
    if let at = arguments.value(options.at) { time = try parser.parseTime(at) }
    if let text = arguments.value(options.duration) {
      duration =
        allowsClearing && text.lowercased() == "none" ? .some(nil) : try DurationText.parse(text)
    }
    if let text = arguments.value(options.quantity) {
      quantity =
        allowsClearing && text.lowercased() == "none" ? .some(nil) : try EntryFields.quantity(text)
    }
    if let note {
      // Typed blanks are a slip (an unset shell variable), not a note; '' still clears one.
      guard note.isEmpty || note.contains(where: { !$0.isWhitespace }) else {
        throw InputError("Note is only spaces; write a note, or leave it out")
      }
      self.note = .some(try EntryFields.note(note))
    }
    let tagTexts = arguments.all(options.tag)
    if !tagTexts.isEmpty {
      var tags: [String] = []
      for text in tagTexts where !tags.contains(try EntryFields.tag(text)) {
        tags.append(try EntryFields.tag(text))
      }
      self.tags = tags
    }
  }
}
