#if canImport(CGlibcMalloc)
import CGlibcMalloc
#endif

/// How much free memory glibc's allocator keeps at the top of each heap, set for the command being run.
///
/// A command's work runs on Swift concurrency threads, whose allocations come from glibc's per-thread arenas. By
/// default such an arena makes its heap usable a few pages at a time (one `mprotect` call per step) and hands
/// free memory at its top back to the system as soon as 128 KB of it pile up (one `madvise`, after which the same
/// pages fault again when they are next used). A session that allocates and frees buffers of around that size
/// (segments, batches, their compression) pays for both on the thread that does it, the main actor included:
/// measured here, keeping 1 MB cut the p99 of the emitting thread's cost for the events that hand a batch to the
/// Outbox by about a fifth. `inspect`, which builds one large model and exits, made 2,000 `mprotect` calls for a
/// 100,000-segment playlist, about a sixteenth of its time; with 64 MB, 17.
enum HeapTuning {
    /// The top pad for a command that runs once and exits (`inspect`).
    static let oneShotTopPad = 64 << 20
    /// The top pad for the others (a session, the lab): what an arena keeps instead of returning it.
    static let sessionTopPad = 1 << 20

    /// Sets the top pad for the command that `arguments` (the program's) run. Call it first thing: the setting
    /// reaches only the arenas made after it.
    static func prepare(forArguments arguments: [String]) {
        setTopPad(arguments.dropFirst().first == "inspect" ? oneShotTopPad : sessionTopPad)
    }

    /// `M_TOP_PAD` for glibc's allocator; nothing elsewhere.
    static func setTopPad(_ bytes: Int) {
        #if canImport(CGlibcMalloc)
        _ = mallopt(M_TOP_PAD, Int32(bytes))
        #endif
    }
}
