// Times PlaytraceHLS parsing one playlist file, for scripts/bench, which runs it in rounds interleaved with the
// Python m3u8 package parsing the same file (scripts/bench-m3u8.py), so that both see the same machine load.
//
//   ParseTimer FILE [SECONDS]   prints "MB/s runs items": the median over the runs of one round, the number of
//                               runs, and the segments (or variants) parsed. A playlist that does not parse is an
//                               error (exit 1): a parser that starts failing must not look faster.
//   ParseTimer FILE --count N   parses the file exactly N times and prints "bytes items", for instruction counts
//                               (scripts/check-floors runs it under callgrind: N = 3 minus N = 1 is two parses).
import Foundation
import PlaytraceHLS

let arguments = CommandLine.arguments
guard arguments.count >= 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: ParseTimer FILE [SECONDS]\n".utf8))
    exit(2)
}
let exactCount = arguments.count > 3 && arguments[2] == "--count" ? Int(arguments[3]) : nil
let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 1 : 1
let bytes = Array(data)
let clock = ContinuousClock()

func parse() -> Int {
    do {
        switch try PlaylistParser().parse(bytes: bytes) {
        case .media(let playlist): return playlist.segments.count
        case .multivariant(let playlist): return playlist.variants.count
        }
    } catch {
        FileHandle.standardError.write(Data("ParseTimer: \(arguments[1]): \(error)\n".utf8))
        exit(1)
    }
}

if let exactCount {
    var items = 0
    for _ in 0..<exactCount { items = parse() }
    print(bytes.count, items)
    exit(0)
}

let items = parse()  // warm-up
var runs: [Duration] = []
let deadline = clock.now + .seconds(seconds)
while clock.now < deadline || runs.count < 3 {
    var count = 0
    runs.append(clock.measure { count = parse() })
    precondition(count == items)
}
runs.sort()
let median = runs[runs.count / 2]
let medianSeconds = Double(median.components.seconds) + Double(median.components.attoseconds) * 1e-18
print(String(format: "%.3f %d %d", Double(bytes.count) / medianSeconds / 1e6, runs.count, items))
