import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// An Apple Health export that declares entities is refused before its first element.
///
/// Apple's files declare none, and an entity of 100 KB named in an attribute of thousands of elements
/// costs time out of all proportion to the bytes read. Nothing of the file is imported.
@Suite struct HostileXMLImportTests {
  let folder = TemporaryDirectory()

  func lifelog(_ arguments: [String]) throws -> CommandResult {
    try LifelogProcess.run(
      arguments, environment: ["LIFELOG_DB": folder.file("log.db"), "TZ": "Europe/Warsaw"])
  }

  static let workout =
    " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" "
    + "startDate=\"2026-11-30 17:00:00 +0100\" endDate=\"2026-11-30 17:32:30 +0100\"/>\n"

  @Test(arguments: [
    ("a", "<!ENTITY a \"\(String(repeating: "x", count: 100_000))\">"),
    ("p", "<!ENTITY % p \"<!ELEMENT Me EMPTY>\">"),
  ])
  func anExportDeclaringAnEntityIsRefusedAndNothingImported(
    name: String, declaration: String
  )
    throws
  {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n"
    xml += "<!ELEMENT HealthData ANY>\n\(declaration)\n]>\n<HealthData locale=\"en\">\n"
    xml += Self.workout
    let value = name == "a" ? "&a;" : "x"  // a parameter entity is named in the DTD only
    for _ in 0..<2_000 { xml += " <Record type=\"\(value)\" value=\"\(value)\"/>\n" }
    xml += "</HealthData>\n"
    let path = folder.file("export.xml")
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    let result = try lifelog(["import", "--from", "apple-health", path])
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stderr.contains("the XML declares the entity '\(name)' (<!ENTITY>)"), "\(result)")
    #expect(result.stdout.isEmpty)
    let list = try lifelog(["list", "--format", "json", "--from", "1970-01-01"])
    #expect(list.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(list)")
  }
}
