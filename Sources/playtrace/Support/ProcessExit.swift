/// What a one-shot command built and no longer needs, left for the process's exit to reclaim: a large model (a
/// parsed playlist of 100,000 segments and its report) costs about as much to free object by object as to print.
enum ProcessExit {
    private final class Kept<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Keeps `value` alive until the process exits (deliberately never released).
    static func keep<Value>(_ value: Value) {
        _ = Unmanaged.passRetained(Kept(value))
    }
}
