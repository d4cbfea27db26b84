import LifelogCore
import Testing

@testable import LifelogCLI

/// The note column of an entry table: the note on one line (`⏎` where it had line breaks), then
/// the tags as `#tag`, as the joined form it replaced gave it.
@Suite struct EntryPresenterNoteTests {
  @Test(arguments: [
    nil, "", "oatmeal", "two words", "a\nb", "\n\nx\r\n", "x\u{2028}y\u{85}z", "żółw\nłoś",
    "trailing \n", " ", "\r",
  ])
  func theNoteAndTagsAreAsTheJoinedFormGaveThem(note: String?) {
    let presenter = EntryPresenter(zone: SystemTimeZone(identifier: "UTC"))
    for tags in [[], ["home"], ["home", "work"], [""], ["a", ""]] as [[String]] {
      let entry = Entry(
        id: "01234567-89ab-cdef-0123-456789abcdef", activityID: "x", activityName: "lunch",
        kind: .meal, time: LoggedTime(instant: 0, offsetMinutes: 0), note: note, tags: tags)
      let lines = (note ?? "").split(whereSeparator: \.isNewline).joined(separator: " ⏎ ")
      let tagText = tags.map { "#\($0)" }.joined(separator: " ")
      let expected = [lines, tagText].filter { !$0.isEmpty }.joined(separator: " ")
      #expect(presenter.noteWithTags(entry) == expected, "\(String(describing: note)) \(tags)")
    }
  }
}
