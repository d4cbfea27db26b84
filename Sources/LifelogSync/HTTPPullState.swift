import LifelogCore
import LifelogProtocol

/// What the client of an HTTP remote keeps as its pull cursor: the server's token, and enough to
/// ask again for a batch it did not merge (docs/sync-protocol.md §6).
///
/// The server's token is opaque, and a client never builds one, so the client remembers tokens the
/// server gave: for each device, the token of the page its newest merged batch came in (asking
/// again from there serves that device's next batch again, since a device pushes in seq order).
/// A held device keeps such a mark; at the end of a pass the next token is rewound to the
/// earliest mark of a held device, compared by the server cursor (an integer in the page's index)
/// of the batch it was taken at. The pass from there re-derives every hold: batches already
/// merged are passed over by seq.
///
/// Stored as JSON in the remote's `cursor` column; a bare token (written by lifelog 0.3.0) is read
/// as a state with nothing held.
struct HTTPPullState: Equatable {
  /// A place to ask again from: a token, and the server cursor of the batch it was taken for.
  struct Mark: Equatable {
    var token: String
    var rank: Int64
  }

  /// The token the next page is asked after.
  var next = ""
  /// The token of the newest merged snapshot: where a device with no mark is asked again from.
  var base = ""
  /// Per device: where its newest merged batch can be asked for again.
  var marks: [String: Mark] = [:]
  /// Devices held in this pass, each with where its first unmerged batch is served again.
  var held: [String: Mark] = [:]
  /// Whether `next` was rewound for held batches: the pass that starts there re-derives holds.
  var rewound = false

  init() {}

  init(parsing text: String) {
    guard text.hasPrefix("{") else {
      next = text
      return
    }
    guard let json = try? JSONValue.parse(Array(text.utf8)) else { return }  // our own column
    next = json["next"]?.string ?? ""
    base = json["base"]?.string ?? ""
    marks = HTTPPullState.marks(json["marks"])
    held = HTTPPullState.marks(json["held"])
    rewound = json["rewound"]?.bool ?? false
  }

  /// A bare token while nothing needs remembering, else the JSON form.
  var encoded: String {
    if marks.isEmpty, held.isEmpty, base.isEmpty, !rewound { return next }
    var object = JSONObjectWriter()
    object.add("next", next)
    object.add("base", base)
    object.addRaw("marks", HTTPPullState.json(marks))
    object.addRaw("held", HTTPPullState.json(held))
    object.add("rewound", rewound)
    return object.result
  }

  /// Where a device's first unmerged batch is served again.
  func mark(for device: String) -> Mark {
    marks[device] ?? Mark(token: base, rank: -1)
  }

  /// Ends a pass: with devices held, the next one starts at the earliest of their marks.
  mutating func endPass() {
    guard let earliest = held.values.min(by: { $0.rank < $1.rank }) else { return }
    next = earliest.token
    rewound = true
  }

  /// Starts a pass after a rewind: every hold is decided afresh.
  mutating func startPass() {
    guard rewound else { return }
    held = [:]
    rewound = false
  }

  private static func marks(_ json: JSONValue?) -> [String: Mark] {
    guard case .object(let members)? = json else { return [:] }
    var marks: [String: Mark] = [:]
    for (device, value) in members {
      guard case .array(let pair) = value, pair.count == 2, let token = pair[0].string,
        let rank = pair[1].integer
      else { continue }
      marks[device] = Mark(token: token, rank: rank)
    }
    return marks
  }

  private static func json(_ marks: [String: Mark]) -> String {
    var object = JSONObjectWriter()
    for device in marks.keys.sorted() {
      guard let mark = marks[device] else { continue }
      object.addRaw(device, "[" + JSONText.quoted(mark.token) + "," + String(mark.rank) + "]")
    }
    return object.result
  }
}
