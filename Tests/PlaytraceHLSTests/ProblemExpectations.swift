import PlaytraceHLS
import Testing

/// Checks how both parsing modes treat an input with one problem: a strict parse throws exactly `reason` at
/// `line`; a lenient parse throws it too when it is fatal, and otherwise lists it among the warnings (or, when
/// skipping it left nothing usable, fails with a fatal error of its own).
func expectProblem(
    _ text: String, _ reason: PlaylistParseError.Reason, line: Int, options: PlaylistParser.Options = .init(),
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let expected = PlaylistParseError(line: line, reason: reason)
    var strict = options
    strict.isStrict = true
    #expect(throws: expected, sourceLocation: sourceLocation) { try PlaylistParser(options: strict).parse(text) }
    var lenient = options
    lenient.isStrict = false
    do {
        let outcome = try PlaylistParser(options: lenient).parseWithWarnings(text)
        #expect(!reason.isFatal, "a fatal problem was not thrown", sourceLocation: sourceLocation)
        #expect(outcome.warnings.contains(PlaylistWarning(skipping: expected)),
                "\(expected) is not among \(outcome.warnings)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.reason.isFatal, "a lenient parse threw \(error)", sourceLocation: sourceLocation)
        if reason.isFatal { #expect(error == expected, sourceLocation: sourceLocation) }
    }
}
