#if canImport(CGlibcMalloc)
import CGlibcMalloc
#endif

/// glibc's allocator set up for a command that builds one large model and exits (`inspect`).
///
/// A command's work runs on a Swift concurrency thread, whose allocations come from one of glibc's per-thread
/// arenas; such an arena makes its heap usable a few pages at a time, one `mprotect` call per step. `inspect` of a
/// 100,000-segment playlist made 2,000 of them, about a sixteenth of its time; with a 64 MB top pad, which glibc
/// gives each arena it makes from then on, 17. Memory made usable but never touched costs nothing; but an arena
/// also keeps up to that much it no longer uses instead of returning it, which is why only a one-shot command
/// asks for it (for a playing session it made no difference measurable here).
enum HeapTuning {
    /// Sets the top pad when `arguments` (the program's) run `inspect`. Call it first thing: the setting reaches
    /// only the arenas made after it.
    static func prepare(forArguments arguments: [String]) {
        guard arguments.dropFirst().first == "inspect" else { return }
        #if canImport(CGlibcMalloc)
        _ = mallopt(M_TOP_PAD, 64 << 20)
        #endif
    }
}
