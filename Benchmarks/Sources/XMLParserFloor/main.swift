// The ceiling of any parser over Foundation's XMLParser: the same file parsed with a delegate that only counts the
// elements' attributes, for scripts/bench, beside ParseTimer and the mpegdash peer.
//
//   XMLParserFloor FILE [SECONDS]   prints "MB/s runs": the median over the runs of one round.
//   XMLParserFloor FILE --count N   parses the file exactly N times (for instruction counts under callgrind).
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

final class CountingDelegate: NSObject, XMLParserDelegate {
    var attributes = 0

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String]) {
        self.attributes += attributes.count
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: XMLParserFloor FILE [SECONDS]\n".utf8))
    exit(2)
}
let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 1 : 1
let clock = ContinuousClock()

func parse() -> Int {
    let delegate = CountingDelegate()
    let parser = XMLParser(data: data)
    parser.delegate = delegate
    guard parser.parse() else {
        FileHandle.standardError.write(Data("XMLParserFloor: \(arguments[1]) is not well-formed\n".utf8))
        exit(1)
    }
    return delegate.attributes
}

if arguments.count > 3, arguments[2] == "--count", let count = Int(arguments[3]) {
    for _ in 0..<count { _ = parse() }
    exit(0)
}

let expected = parse()  // warm-up
var runs: [Duration] = []
let deadline = clock.now + .seconds(seconds)
while clock.now < deadline || runs.count < 3 {
    var count = 0
    runs.append(clock.measure { count = parse() })
    precondition(count == expected)
}
runs.sort()
let median = runs[runs.count / 2]
let medianSeconds = Double(median.components.seconds) + Double(median.components.attoseconds) * 1e-18
print(String(format: "%.3f %d", Double(data.count) / medianSeconds / 1e6, runs.count))
