import Foundation
import Testing
@testable import PlaytraceCore

@Suite("Core: huge-page advice for large buffers")
struct HugePagesTests {
    /// The `VmFlags` of the mapping of `/proc/self/smaps` that holds `address` (nil where there is no such file).
    private static func mappingFlags(at address: UInt) -> [String]? {
        // (Read to its end: the file's size reads as zero, and readers that trust it get nothing.)
        guard let file = FileHandle(forReadingAtPath: "/proc/self/smaps"),
              let data = try? file.readToEnd(), let smaps = String(data: data, encoding: .utf8) else { return nil }
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
               let start = UInt(line[..<dash], radix: 16), let end = UInt(line[line.index(after: dash)..<space], radix: 16)
            {
                inMapping = start <= address && address < end
            } else if inMapping, line.hasPrefix("VmFlags:") {
                return line.dropFirst("VmFlags:".count).split(separator: " ").map(String.init)
            }
        }
        return nil
    }

    @Test("An array's reserved capacity is advised from its first whole huge page on, and keeps what is written")
    func advisesLargeArrays() throws {
        #if os(Linux)
        // Without transparent huge pages in the kernel the advice is refused: nothing to see.
        try #require(FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled"))
        var values: [UInt64] = []
        values.reserveCapacity(3 * HugePages.size / 8)
        HugePages.advise(capacityOf: &values)
        for index in 0..<values.capacity { values.append(UInt64(index) &* 0x9E37_79B9_7F4A_7C15) }
        #expect(values.indices.allSatisfy { values[$0] == UInt64($0) &* 0x9E37_79B9_7F4A_7C15 })
        let base = values.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let firstWholePage = (base + UInt(HugePages.size) - 1) & ~UInt(HugePages.size - 1)
        let flags = try #require(Self.mappingFlags(at: firstWholePage))
        #expect(flags.contains("hg"))
        #endif
    }

    @Test("Only the whole huge pages inside a buffer are advised; a buffer holding none is left as it is")
    func advisesAlignedPartOnly() throws {
        #if os(Linux)
        try #require(FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled"))
        let size = HugePages.size
        let count = 4 * size
        let memory = try #require(mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        defer { munmap(memory, count) }
        let aligned = (UInt(bitPattern: memory) + UInt(size)) & ~UInt(size - 1)
        // A buffer from half a megabyte before a boundary to two and a half after it: one whole huge page inside.
        let start = try #require(UnsafeMutableRawPointer(bitPattern: aligned - UInt(size / 4)))
        HugePages.advise(start, byteCount: size + size / 2)
        #expect(Self.mappingFlags(at: aligned)?.contains("hg") == true)
        #expect(Self.mappingFlags(at: aligned - 4_096)?.contains("hg") == false)
        #expect(Self.mappingFlags(at: aligned + UInt(size))?.contains("hg") == false)
        // A megabyte and a half starting past that page: no whole huge page, no advice.
        let later = try #require(UnsafeMutableRawPointer(bitPattern: aligned + UInt(size) + 4_096))
        HugePages.advise(later, byteCount: size * 3 / 4)
        #expect(Self.mappingFlags(at: aligned + UInt(size) + 4_096)?.contains("hg") == false)
        #endif
    }
}
