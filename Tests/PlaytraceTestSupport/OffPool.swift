public import Foundation

// A test that starts a process itself waits for it here, never on a Swift concurrency thread. The pool has one
// thread per core: on a 2-core machine two tests blocked in `waitUntilExit()` leave none for the in-process lab,
// so the command they wait for times out on its requests to that lab (and a signalled command that flushes its
// beacons to the lab cannot end).

extension Process {
    /// Waits, on a Dispatch thread, until the process has ended.
    public func ended() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.waitUntilExit()
                continuation.resume()
            }
        }
    }
}

extension FileHandle {
    /// Reads, on a Dispatch thread, until the end of the file (a pipe's writers have all closed it), as UTF-8.
    public func readText() async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: String(decoding: self.readDataToEndOfFile(), as: UTF8.self))
            }
        }
    }
}
