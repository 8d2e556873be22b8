#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to back a large buffer with huge pages (Linux's transparent huge pages) where it can.
///
/// Filling tens of megabytes touches thousands of fresh 4 KB pages, and each first touch is a page fault: for a
/// 100,000-segment playlist (its 14 MB of text read into memory and 16 MB of segments built from it), a fifth of
/// `playtrace inspect`'s time went to faults. Memory advised here is faulted 2 MB at a time instead, when the system
/// allows it (`/sys/kernel/mm/transparent_hugepage/enabled` set to `always` or `madvise`); with `never`, or
/// elsewhere than Linux, this does nothing. The advice covers only the 2 MB-aligned part of the buffer, is taken
/// before the buffer is written, and changes nothing about what the memory holds or how long it lives.
package enum HugePages {
    /// The size of a huge page on the platforms where advice is given.
    package static let size = 2 << 20

    /// Advises huge pages for the 2 MB-aligned part of `byteCount` bytes from `start` (nothing when no whole huge
    /// page fits in it).
    package static func advise(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux) && canImport(Glibc)
        guard byteCount >= size else { return }
        let address = UInt(bitPattern: start)
        let first = (address + UInt(size) - 1) & ~UInt(size - 1)
        let end = (address + UInt(byteCount)) & ~UInt(size - 1)
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        // Advice, not a requirement: a kernel that refuses it leaves the memory as it was.
        _ = madvise(aligned, Int(end - first), MADV_HUGEPAGE)
        #endif
    }

    /// Advises huge pages for the whole capacity of `array` (its elements and the room reserved past them).
    package static func advise<Element>(capacityOf array: inout [Element]) {
        let byteCount = array.capacity * MemoryLayout<Element>.stride
        guard byteCount >= size else { return }
        array.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { advise(UnsafeMutableRawPointer(base), byteCount: byteCount) }
        }
    }
}
