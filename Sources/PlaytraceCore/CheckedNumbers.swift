// Package-wide, not public: extensions of the standard library's types would change what `Int.init` means in an
// app's code (`doubles.map(Int.init)` would no longer resolve).

/// Conversions of numbers that came from outside (a playlist, ad metadata, VAST, a summary file) into integers and
/// durations, without a trap.
///
/// Swift's `Int64(someDouble)` and `Duration.seconds(someDouble)` stop the process when the value is NaN, infinite
/// or out of range, and `a + b` does when the sum overflows. A number a server sent can be any of those. Parsers
/// check the values they read against the ranges a document may use and list what is out of range as a problem of
/// the document; every conversion further on goes through these functions, which clamp instead of trapping, so that
/// a value that slipped past a check costs a wrong figure, never the process.
///
/// ```swift
/// Int64(saturating: 1e300)                  // Int64.max
/// Int64(saturating: .nan)                   // 0
/// Duration.saturating(seconds: 1e16)        // the longest Duration of Int64 nanoseconds
/// 9_223_372_036_854_775_807.addingSaturating(10)   // Int.max
/// ```
extension Int64 {
    /// The value rounded to the nearest integer, clamped to `Int64`'s range; NaN becomes 0.
    package init(saturating value: Double) {
        guard !value.isNaN else {
            self = 0
            return
        }
        let rounded = value.rounded()
        // 2^63 is the first Double past Int64.max; -2^63 is Int64.min exactly.
        if rounded >= 9_223_372_036_854_775_808.0 {
            self = .max
        } else if rounded <= -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int64(rounded)
        }
    }

    /// The value, or `nil` when it is NaN, infinite or out of `Int64`'s range once rounded.
    package init?(checkedRounding value: Double) {
        let rounded = value.rounded()
        guard rounded.isFinite, rounded < 9_223_372_036_854_775_808.0, rounded >= -9_223_372_036_854_775_808.0 else {
            return nil
        }
        self = Int64(rounded)
    }

    /// The sum, or `nil` where it would overflow.
    package func addingChecked(_ other: Int64) -> Int64? {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? nil : sum
    }
}

extension Int {
    /// The value rounded to the nearest integer, clamped to `Int`'s range; NaN becomes 0.
    package init(saturating value: Double) {
        self = Int(truncatingIfNeeded: Int64(saturating: value))
    }

    /// The sum, or `Int.max` / `Int.min` where it would overflow.
    package func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// The sum, or `nil` where it would overflow.
    package func addingChecked(_ other: Int) -> Int? {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? nil : sum
    }
}

extension Duration {
    /// A duration of `seconds`, rounded to the nanosecond and clamped to what `Int64` nanoseconds hold (about
    /// ±292 years); NaN becomes zero.
    package static func saturating(seconds: Double) -> Duration {
        .nanoseconds(Int64(saturating: seconds * 1e9))
    }

    /// A duration of `milliseconds` rounded to the whole millisecond (the unit of ad metadata, whose instants
    /// schedule beacons), clamped to `Int64` milliseconds; NaN becomes zero.
    package static func saturating(milliseconds: Double) -> Duration {
        .milliseconds(Int64(saturating: milliseconds))
    }
}

extension Double {
    /// Whether the number is finite and its magnitude at most `bound`: the test a parser applies to a time or an
    /// amount a document states before it keeps it.
    package func isWithin(magnitude bound: Double) -> Bool {
        isFinite && abs(self) <= bound
    }
}
