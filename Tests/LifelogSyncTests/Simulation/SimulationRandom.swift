/// SplitMix64: a tiny seeded generator, so a simulation run is replayed exactly from its seed.
struct SimulationRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

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
