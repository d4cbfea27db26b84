import LifelogCore
import Testing

/// ``ActivityName/key(_:)``: names are compared case-folded, with runs of spaces and tabs between
/// words made one space and none at either end, whichever way the name was written.
@Suite struct ActivityNameKeyTests {
  @Test(arguments: [
    ("breakfast", "breakfast"), ("Breakfast", "breakfast"), ("Big Lunch", "big lunch"),
    ("  Big   Lunch ", "big lunch"), ("big\tlunch", "big lunch"), ("\tTEA\t \t", "tea"),
    ("-dash", "-dash"), ("Żurek Wieczorny", "żurek wieczorny"), ("ÉCLAIR  x", "éclair x"),
    (String(repeating: "Ab ", count: 30) + "c", String(repeating: "ab ", count: 30) + "c"),
    ("", ""), ("   ", ""),
  ])
  func theKeyIsTheNameCaseFoldedWithSingleSpaces(name: String, key: String) {
    #expect(ActivityName.key(name) == key)
  }
}
