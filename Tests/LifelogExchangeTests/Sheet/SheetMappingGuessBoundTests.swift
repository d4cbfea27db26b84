import LifelogCore
import Testing

@testable import LifelogExchange

/// The proposed mapping reads a bounded number of cells, however wide the sheet.
@Suite struct SheetMappingGuessBoundTests {
  @Test func aNarrowSheetIsSampledBy200Rows() {
    #expect(SheetMappingGuess.sampleRows(columns: 5) == 200)
  }

  @Test func aSheetOfASpreadsheetsWidestRowsReadsAtMostTheBound() {
    for columns in [100, 1_000, 16_384, 1_000_000] {
      let rows = SheetMappingGuess.sampleRows(columns: columns)
      #expect(rows >= 1)
      #expect(rows * columns <= max(SheetMappingGuess.sampledCells, columns), "\(columns)")
    }
  }

  /// A wide sheet still gets its proposal from the rows it reads.
  @Test func aWideSheetStillGetsAProposal() {
    var header = [SheetCell.text("Kiedy"), .text("Co")]
    header += (2..<16_000).map { SheetCell.text("c\($0)") }
    var rows = [SheetRow(number: 1, cells: header)]
    for number in 2...201 {
      var cells = [SheetCell.text("6.12.2026 7:\(10 + number % 40)"), .text("meal \(number % 3)")]
      cells += (2..<16_000).map { _ in SheetCell.empty }
      rows.append(SheetRow(number: number, cells: cells))
    }
    let proposal = SheetMappingGuess.propose(SheetTable(name: "wide", rows: rows), headerIndex: 0)
    #expect(proposal?.hasPrefix("--map at=Kiedy") == true, "\(proposal ?? "nil")")
  }
}
