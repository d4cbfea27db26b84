import Testing

@testable import LifelogCore

/// The median counts minutes instead of sorting them when it can; both ways must agree.
@Suite struct MealSummaryMedianTests {
  private func sortedMedian(_ values: [Int]) -> Int? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  @Test func countingAgreesWithSorting() {
    var random = SystemRandomNumberGenerator()
    for count in [1, 2, 3, 4, 5, 10, 101, 1000] {
      for _ in 0..<20 {
        let values = (0..<count).map { _ in Int.random(in: 0..<1500, using: &random) }
        #expect(MealSummary.median(values) == sortedMedian(values), "\(values.prefix(10))")
      }
    }
  }

  @Test func edgeCases() {
    #expect(MealSummary.median([]) == nil)
    #expect(MealSummary.median([7]) == 7)
    #expect(MealSummary.median([150, 181]) == 165)
    #expect(MealSummary.median([0, 0, 10_000]) == 0)
    #expect(MealSummary.median([10_000, 20_001]) == 15_000)
  }
}
