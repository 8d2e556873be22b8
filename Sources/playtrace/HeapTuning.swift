#if canImport(CGlibcMalloc)
import CGlibcMalloc
#endif

/// Allocator settings for a command that builds one large model and exits (`inspect`).
enum HeapTuning {
    /// The commands that ask for ``growInLargeSteps()``: they run once and exit.
    static let oneShotCommands: Set<String> = ["inspect"]

    /// Applies the settings when `arguments` (the program's) run a one-shot command. Call it first thing: the
    /// setting reaches only the allocator arenas made after it.
    static func prepare(forArguments arguments: [String]) {
        if let command = arguments.dropFirst().first, oneShotCommands.contains(command) { growInLargeSteps() }
    }

    /// Makes glibc's allocator give each new arena (and each heap an arena adds) 64 MB of usable memory at once,
    /// instead of growing it a few pages at a time.
    ///
    /// A command's work runs on a Swift concurrency thread, whose allocations come from one of glibc's per-thread
    /// arenas; such an arena makes its heap usable with one `mprotect` call per step, and `inspect` of a
    /// 100,000-segment playlist made 2,000 of them (17 with this setting), about a sixteenth of its time. Memory
    /// made usable but never touched costs nothing; but an arena with this setting also keeps up to 64 MB it no
    /// longer uses instead of returning it, which is why only one-shot commands ask for it.
    static func growInLargeSteps() {
        #if canImport(CGlibcMalloc)
        _ = mallopt(M_TOP_PAD, 64 << 20)
        #endif
    }
}
