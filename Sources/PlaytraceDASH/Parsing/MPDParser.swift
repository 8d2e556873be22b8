public import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PlaytraceCore

/// Why a document could not be read as an MPD at all (what can be read leniently is read, and listed in
/// ``MediaPresentation/problems``).
public struct MPDParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line it concerns (0 when none).
    public var line: Int
    public var message: String

    public init(line: Int = 0, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}

/// Reads an MPD (ISO/IEC 23009-1) with Foundation's `XMLParser` into a ``MediaPresentation``: each element's
/// attributes as written, nothing inherited or expanded (a `SegmentTemplate` over a year of segments stays one
/// element; a `SegmentTimeline` stays its `S` elements).
///
/// Lenient where players are: an attribute that cannot be read, an element where it does not belong, an `S` without
/// `@d`, is listed with its line in ``MediaPresentation/problems`` and left out; what the reading cannot do
/// without (not XML, no `MPD` root) throws ``MPDParseError``.
///
/// Untrusted input is bounded: a document larger than ``Limits/maximumBytes``, with more than
/// ``Limits/maximumElements`` elements or deeper than ``Limits/maximumDepth``, or that declares a document type (entities
/// could expand without bound) is refused; periods, representations, timeline entries and events past their limits
/// are left out, once listed; text is cut at ``Limits/maximumTextBytes``. One pass: linear in the document's size.
///
/// ```swift
/// let presentation = try MPDParser().parse(Data(mpd.utf8))
/// for period in presentation.periods {
///     print(period.id ?? "-", period.adaptationSets.count)
/// }
/// ```
public struct MPDParser: Sendable {
    /// Bounds on what a document may hold.
    public struct Limits: Sendable, Hashable {
        public var maximumBytes = 16 << 20
        public var maximumElements = 2_000_000
        public var maximumDepth = 32
        public var maximumPeriods = 1_000
        public var maximumRepresentations = 10_000
        public var maximumTimelineEntries = 1_000_000
        public var maximumEvents = 100_000
        public var maximumTextBytes = 64 << 10
        /// Problems past this many are counted, not listed.
        public var maximumProblems = 1_000

        public init() {}
    }

    public var limits: Limits

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Parses a document.
    public func parse(_ data: Data) throws(MPDParseError) -> MediaPresentation {
        guard data.count <= limits.maximumBytes else {
            throw MPDParseError("the document is larger than \(limits.maximumBytes) bytes")
        }
        // Foundation's XMLParser on Linux crashes on element names that are not UTF-8: the bytes are checked first.
        guard XMLDocumentCheck.isUTF8(data) else { throw MPDParseError("the document is not UTF-8") }
        // A document type is refused; an instruction without data (`<?name?>`), which would crash Foundation's
        // parser, is blanked out first.
        guard let screened = XMLDocumentCheck.screened(data) else {
            throw MPDParseError("the document has a document type declaration (<!DOCTYPE or <!ENTITY): refused")
        }
        let reader = MPDReader(limits: limits)
        let parser = XMLParser(data: screened)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = reader
        let succeeded = parser.parse()
        if let refusal = reader.refusal { throw refusal }
        if let reason = XMLDocumentCheck.wellFormednessFailure(succeeded: succeeded, error: parser.parserError) {
            throw MPDParseError(line: parser.lineNumber, "not well-formed XML: \(reason)")
        }
        guard reader.sawRoot else { throw MPDParseError("the document has no MPD element") }
        return reader.finish()
    }
}
