// libFuzzer target for PlaytraceHLS's SCTE-35 decoder (built by scripts/fuzz): any bytes, and the same bytes as
// text (hex or base64), must decode or give a typed error, never crash.
import PlaytraceHLS

// Invariant (what makes this file's pointer use sound): libFuzzer lends `size` bytes at `data` for the call; they are copied at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSCTE35(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let section = try? SpliceInfoSection(bytes: bytes) {
        _ = section.adjustedSpliceTime
        _ = section.segmentationDescriptors.map { ($0.typeName, $0.upid.description) }
    }
    _ = try? SpliceInfoSection(encoded: String(decoding: bytes, as: UTF8.self))
    return 0
}
