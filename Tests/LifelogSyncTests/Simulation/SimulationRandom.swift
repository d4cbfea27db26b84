import LifelogCore

/// The simulation's generator (SplitMix64 underneath), so a run replays exactly from its seed.
struct SimulationRandom: RandomNumberGenerator {
  private var generator: SplitMix64

  init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  mutating func next() -> UInt64 { generator.next() }

  /// True with probability `probability`.
  mutating func chance(_ probability: Double) -> Bool {
    Double(next() >> 11) / Double(1 << 53) < probability
  }

  /// A whole number in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  /// A 64-bit number in `range`.
  mutating func int64(_ range: ClosedRange<Int64>) -> Int64 {
    Int64.random(in: range, using: &self)
  }

  /// One element of a non-empty array.
  mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }

  /// An index chosen with the given relative weights.
  mutating func weighted(_ weights: [Int]) -> Int {
    var roll = Int.random(in: 0..<weights.reduce(0, +), using: &self)
    for (index, weight) in weights.enumerated() {
      if roll < weight { return index }
      roll -= weight
    }
    return weights.count - 1
  }
}
