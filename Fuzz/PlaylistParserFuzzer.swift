// libFuzzer target for PlaytraceHLS's playlist parser and writer (built by scripts/fuzz).
//
// Properties checked on every input: parsing never crashes or hangs; a playlist that parses writes back to text
// that parses to the same model; the ad-break extraction and program-date-time map never crash.
import PlaytraceCore
import PlaytraceHLS

// Invariant (what makes this file's pointer use sound): libFuzzer lends `size` bytes at `data` for the call; they are copied at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylistParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let parser = PlaylistParser()
    guard let playlist = try? parser.parse(bytes: bytes) else { return 0 }
    let written = PlaylistWriter().write(playlist)
    guard let reparsed = try? parser.parse(written) else {
        fatalError("the writer's output does not parse:\n\(written)")
    }
    if reparsed != playlist { fatalError("the round trip changed the playlist:\n\(written)") }
    if case .media(let media) = playlist {
        _ = media.adBreaks
        let map = ProgramDateTimeMap(media)
        _ = map.date(at: media.duration * 0.5)
    }
    return 0
}
