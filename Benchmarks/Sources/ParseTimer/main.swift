// Times PlaytraceHLS parsing one playlist file, or PlaytraceDASH one MPD (a FILE ending in .mpd), for scripts/bench,
// which runs it in rounds interleaved with the Python m3u8 package (scripts/bench-m3u8.py) or mpegdash package
// (scripts/bench-mpegdash.py) parsing the same file, so that both see the same machine load.
//
//   ParseTimer FILE [SECONDS]   prints "MB/s runs items": the median over the runs of one round, the number of
//                               runs, and the segments (or variants) parsed; for an MPD, its representations plus
//                               its S elements. A playlist that does not parse is an
//                               error (exit 1): a parser that starts failing must not look faster.
//   ParseTimer FILE.mpd SECONDS --refresh
//                               the same, for what a live MPD's refresh costs a player: parse, resolve (periods,
//                               inheritance, base URLs) and find each representation's available segments at the
//                               MPD's publish time; items = the segments available.
//   ParseTimer FILE.mpd SECONDS --present
//                               what a live MPD's refresh costs the headless engine: parse, resolve, and make the
//                               top rung's media playlist at the MPD's publish time (PlaytraceDASHPlayback: the
//                               segments available, named, dated); items = the segments it lists.
//   ParseTimer FILE --count N   parses the file exactly N times and prints "bytes items", for instruction counts
//                               (scripts/check-floors runs it under callgrind: N = 3 minus N = 1 is two parses).
import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceDASHPlayback
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

let isMPD = arguments[1].hasSuffix(".mpd")
let refresh = arguments.count > 3 && arguments[3] == "--refresh"
let present = arguments.count > 3 && arguments[3] == "--present"

func parse() -> Int {
    if isMPD { return present ? presentMPD() : refresh ? refreshMPD() : parseMPD() }
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

/// The MPD as written (what mpegdash gives: no inheritance, no segment lists).
func parseMPD() -> Int {
    do {
        let presentation = try MPDParser().parse(data)
        var items = 0
        for period in presentation.periods {
            items += period.segmentInformation.template?.timeline?.count ?? 0
            for set in period.adaptationSets {
                items += set.representations.count + (set.segmentInformation.template?.timeline?.count ?? 0)
                for representation in set.representations {
                    items += representation.segmentInformation.template?.timeline?.count ?? 0
                }
            }
        }
        return items
    } catch {
        FileHandle.standardError.write(Data("ParseTimer: \(arguments[1]): \(error)\n".utf8))
        exit(1)
    }
}

/// A live refresh: parse, resolve, and find each representation's available segments.
func refreshMPD() -> Int {
    do {
        let written = try MPDParser().parse(data)
        let presentation = ResolvedPresentation(written, url: URL(string: "https://origin.example/live/manifest.mpd")!)
        let now = written.publishTime ?? StreamDate(secondsSince1970: 0)
        let window = AvailabilityWindow(presentation, at: now)
        var available: Int64 = 0
        for period in presentation.periods {
            for set in period.adaptationSets {
                for representation in set.representations {
                    if let range = window.available(in: representation.segments) { available += range.upperBound - range.lowerBound + 1 }
                }
            }
        }
        return Int(available)
    } catch {
        FileHandle.standardError.write(Data("ParseTimer: \(arguments[1]): \(error)\n".utf8))
        exit(1)
    }
}

/// A live refresh as the headless engine makes it: the top rung's media playlist at the publish time.
func presentMPD() -> Int {
    do {
        let written = try MPDParser().parse(data)
        let url = URL(string: "https://origin.example/live/manifest.mpd")!
        var playlists = DASHPlaylists(ResolvedPresentation(written, url: url), base: url, maximumSegments: 20_000)
        let top = max(0, playlists.ladder.rungs.count - 1)
        return playlists.mediaPlaylist(.rung(top, location: 0), at: written.publishTime)?.segments.count ?? 0
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
