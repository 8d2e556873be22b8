public import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PlaytraceCore

/// Why a VAST response could not be read, with the VAST error code it is reported with.
public struct VASTParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: VASTErrorCode
    public var message: String

    public init(_ code: VASTErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "VAST error \(code.rawValue): \(message)" }
}

/// Reads VAST 2.0–4.3 documents with Foundation's `XMLParser` into ``VASTDocument``s.
///
/// Untrusted input is bounded: a document larger than ``Limits/maximumBytes``, with more than
/// ``Limits/maximumElements`` elements, more than ``Limits/maximumAds`` ads or deeper than
/// ``Limits/maximumDepth`` is refused, text longer than ``Limits/maximumTextBytes`` is cut, and a document that
/// declares entities (a DTD) is refused, so that no entity expansion can make it grow; so is one that is not UTF-8.
/// Parsing is one pass: linear in the document's size.
///
/// ```swift
/// let document = try VASTParser().parse(Data(xml.utf8))
/// for ad in document.ads { print(ad.id ?? "-", ad.linear?.duration ?? 0) }
/// ```
public struct VASTParser: Sendable {
    /// Bounds on what a document may hold.
    public struct Limits: Sendable, Hashable {
        public var maximumBytes = 4 << 20
        public var maximumElements = 200_000
        public var maximumAds = 1_000
        public var maximumDepth = 64
        public var maximumTextBytes = 64 << 10

        public init() {}
    }

    public var limits: Limits

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Parses a document; throws ``VASTParseError`` with code 100 (not XML), 101 (not VAST) or 102 (a version
    /// other than 2, 3 or 4).
    public func parse(_ data: Data) throws(VASTParseError) -> VASTDocument {
        guard data.count <= limits.maximumBytes else {
            throw VASTParseError(.xmlParsing, "the document is larger than \(limits.maximumBytes) bytes")
        }
        // Foundation's XMLParser on Linux crashes on element names that are not UTF-8: the bytes are checked first
        // (VAST is UTF-8; a UTF-16 document would be refused here too).
        guard XMLDocumentCheck.isUTF8(data) else {
            throw VASTParseError(.xmlParsing, "the document is not UTF-8")
        }
        // A document type declaration could declare entities that expand without bound, or read local files: VAST
        // has none, so a document with one is refused before parsing. An instruction without data (`<?name?>`), which
        // would crash Foundation's parser, is blanked out first.
        guard let screened = XMLDocumentCheck.screened(data) else {
            throw VASTParseError(.xmlParsing, "the document has a document type declaration (<!DOCTYPE or <!ENTITY): refused")
        }
        let reader = VASTReader(limits: limits)
        let parser = XMLParser(data: screened)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = reader
        let succeeded = parser.parse()
        if let refusal = reader.refusal { throw refusal }
        if let reason = XMLDocumentCheck.wellFormednessFailure(succeeded: succeeded, error: parser.parserError) {
            throw VASTParseError(.xmlParsing, "not well-formed XML (line \(parser.lineNumber)): \(reason)")
        }
        guard let version = reader.version else { throw VASTParseError(.schemaValidation, "the root element is not <VAST>") }
        guard reader.isComplete else { throw VASTParseError(.xmlParsing, "the document ends before </VAST>") }
        guard let major = version.split(separator: ".").first.flatMap({ Int($0) }), (2...4).contains(major) else {
            throw VASTParseError(.versionNotSupported, "VAST version \(version) is not supported")
        }
        return VASTDocument(version: version, ads: reader.ads, errorURLs: reader.rootErrors, problems: reader.problems)
    }
}

/// The XMLParser delegate: follows the element path and fills the model as elements close.
private final class VASTReader: NSObject, XMLParserDelegate {
    let limits: VASTParser.Limits
    var refusal: VASTParseError?
    var version: String?
    var ads: [VASTAd] = []
    var rootErrors: [String] = []
    /// What could not be read and was passed over, at its line.
    var problems: [VASTProblem] = []
    /// Whether `</VAST>` was read.
    var isComplete = false

    private var path: [String] = []
    private var attributes: [[String: String]] = []
    /// The line of the callback being handled (the element's start or end tag), for its problems.
    private var line = 0
    private var text = ""
    private var elementCount = 0

    // What is being built.
    private var ad: VASTAd?
    /// Whether the ad being read has its `<InLine>` or `<Wrapper>` (one without is dropped).
    private var adHasBody = false
    private var inline = VASTInline()
    private var wrapperAttributes: [String: String] = [:]
    private var adTagURI: String?
    private var creative: VASTCreative?
    private var linear: VASTLinear?
    private var companion: VASTCompanion?
    private var nonLinear: VASTNonLinear?
    private var verification: VASTVerification?

    init(limits: VASTParser.Limits) { self.limits = limits }

    private func refuse(_ parser: XMLParser, _ error: VASTParseError) {
        guard refusal == nil else { return }
        refusal = error
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String]) {
        elementCount += 1
        line = parser.lineNumber
        guard elementCount <= limits.maximumElements else {
            return refuse(parser, VASTParseError(.xmlParsing, "more than \(limits.maximumElements) elements"))
        }
        guard path.count < limits.maximumDepth else {
            return refuse(parser, VASTParseError(.xmlParsing, "elements nested deeper than \(limits.maximumDepth)"))
        }
        if path.isEmpty {
            guard name == "VAST" else {
                return refuse(parser, VASTParseError(.schemaValidation, "the root element is <\(name)>, not <VAST>"))
            }
            version = attributes["version"] ?? ""
        }
        path.append(name)
        self.attributes.append(attributes)
        text = ""
        switch name {
        case "Ad" where path.count == 2:
            guard ads.count < limits.maximumAds else {
                return refuse(parser, VASTParseError(.xmlParsing, "more than \(limits.maximumAds) ads"))
            }
            ad = VASTAd(id: attributes["id"], sequence: integer(attributes["sequence"], "<Ad> sequence", range: 0...Self.largestSequence,
                                                           consequence: "the ad is taken as a stand-alone ad"),
                        adType: attributes["adType"], kind: .inline(VASTInline()))
            inline = VASTInline()
            adHasBody = false
            wrapperAttributes = [:]
            adTagURI = nil
        case "Wrapper" where parent(is: "Ad"):
            wrapperAttributes = attributes
        case "Creative" where ad != nil:
            creative = VASTCreative(id: attributes["id"], adID: attributes["adId"] ?? attributes["AdID"],
                                    sequence: integer(attributes["sequence"], "<Creative> sequence", range: 0...Self.largestSequence))
        case "Linear" where creative != nil:
            linear = VASTLinear(skipOffset: offset(attributes["skipoffset"], "<Linear> skipoffset",
                                                   consequence: "the ad is not skippable"))
        case "Companion" where creative != nil:
            companion = VASTCompanion(id: attributes["id"], width: size(attributes["width"], "<Companion> width"),
                                      height: size(attributes["height"], "<Companion> height"))
        case "NonLinear" where creative != nil:
            nonLinear = VASTNonLinear(id: attributes["id"], width: size(attributes["width"], "<NonLinear> width"),
                                      height: size(attributes["height"], "<NonLinear> height"),
                                      minSuggestedDuration: clockTime(attributes["minSuggestedDuration"],
                                                                      "<NonLinear> minSuggestedDuration"))
        case "Verification" where ad != nil:
            verification = VASTVerification(vendor: attributes["vendor"])
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { append(string) }

    func parser(_ parser: XMLParser, foundCDATA block: Data) { append(String(decoding: block, as: UTF8.self)) }

    private func append(_ string: String) {
        guard text.utf8.count < limits.maximumTextBytes else { return }
        text += string
        if text.utf8.count > limits.maximumTextBytes { text = String(text.utf8.prefix(limits.maximumTextBytes)) ?? "" }
    }

    // A document type declaration could expand entities without bound: VAST has none, so any is refused.
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        refuse(parser, VASTParseError(.xmlParsing, "the document declares an entity (\(name)): refused"))
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        refuse(parser, VASTParseError(.xmlParsing, "the document declares an external entity (\(name)): refused"))
    }

    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
        refuse(parser, VASTParseError(.xmlParsing, "the document has a DTD: refused"))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard path.last == name else { return }
        line = parser.lineNumber
        let value = text.trimmingWhitespace()
        let attributes = self.attributes.last ?? [:]
        close(name, value: value, attributes: attributes)
        path.removeLast()
        if path.isEmpty { isComplete = true }
        self.attributes.removeLast()
        text = ""
    }

    private func parent(is name: String, _ level: Int = 1) -> Bool {
        path.count > level && path[path.count - 1 - level] == name
    }

    // MARK: Numbers and times from the document: each one unreadable, or out of its range, is a problem at its line.

    /// The largest `sequence` taken: a pod of more ads than a document may hold is no pod.
    static let largestSequence = 1_000_000
    /// The largest width or height (pixels) and bit rate (kbit/s) taken.
    static let largestSize = 100_000
    static let largestBitrate = 100_000_000

    private func problem(_ message: String) {
        problems.append(VASTProblem(line: line, message: message))
    }

    /// Outside text as a problem quotes it: at most 40 characters.
    private static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
        return "\"\(shown)\""
    }

    /// A whole number in `range`; `nil` (and a problem) otherwise.
    private func integer(_ text: String?, _ what: String, range: ClosedRange<Int>,
                         consequence: String = "left out") -> Int? {
        guard let text else { return nil }
        if let value = Int(text.trimmingWhitespace()), range.contains(value) { return value }
        problem("\(what) \(Self.quoted(text)) is not a whole number from \(range.lowerBound) to \(range.upperBound): \(consequence)")
        return nil
    }

    private func size(_ text: String?, _ what: String) -> Int? {
        integer(text, what, range: 0...Self.largestSize)
    }

    /// `HH:MM:SS` or `HH:MM:SS.mmm` within the documents' range (``MediaTime/maximumDocumentSeconds``).
    private func clockTime(_ text: String?, _ what: String, consequence: String = "left out") -> MediaTime? {
        guard let text else { return nil }
        if let seconds = VASTOffset.clockSeconds(text) { return MediaTime(seconds: seconds) }
        problem("\(what) \(Self.quoted(text)) is not HH:MM:SS or HH:MM:SS.mmm within \(Self.documentRange): \(consequence)")
        return nil
    }

    /// A time or a percentage (`n%`, 0 to 100).
    private func offset(_ text: String?, _ what: String, consequence: String) -> VASTOffset? {
        guard let text else { return nil }
        if let offset = VASTOffset(text) { return offset }
        problem("\(what) \(Self.quoted(text)) is neither HH:MM:SS[.mmm] within \(Self.documentRange) nor a percentage "
            + "from 0 to 100%: \(consequence)")
        return nil
    }

    private static let documentRange = "\(Int(MediaTime.maximumDocumentSeconds)) s"

    private func tracking(_ value: String, _ attributes: [String: String]) -> VASTTracking? {
        guard !value.isEmpty else { return nil }
        guard let event = attributes["event"] else {
            problem("<Tracking> without an event attribute: skipped")
            return nil
        }
        return VASTTracking(event: event, offset: offset(attributes["offset"], "<Tracking event=\"\(event)\"> offset",
                                                         consequence: "it never fires"),
                            url: value)
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    private func close(_ name: String, value: String, attributes: [String: String]) {
        switch name {
        case "Error" where path.count == 2:
            if !value.isEmpty { rootErrors.append(value) }
        case "Error" where parent(is: "InLine") || parent(is: "Wrapper"):
            if !value.isEmpty { ad?.errorURLs.append(value) }
        case "Impression" where parent(is: "InLine") || parent(is: "Wrapper"):
            if !value.isEmpty { ad?.impressionURLs.append(value) }
        case "Viewable" where parent(is: "ViewableImpression"):
            if !value.isEmpty { ad?.viewableURLs.append(value) }
        case "NotViewable" where parent(is: "ViewableImpression"):
            if !value.isEmpty { ad?.notViewableURLs.append(value) }
        case "ViewUndetermined" where parent(is: "ViewableImpression"):
            if !value.isEmpty { ad?.viewUndeterminedURLs.append(value) }
        case "AdSystem":
            ad?.adSystem = value
        case "AdServingId":
            ad?.adServingID = value
        case "AdTitle":
            inline.title = value
        case "Description" where parent(is: "InLine"):
            inline.description = value
        case "Category" where parent(is: "InLine"):
            if !value.isEmpty { inline.categories.append(value) }
        case "VASTAdTagURI":
            adTagURI = value
        case "UniversalAdId" where creative != nil:
            creative?.universalAdIDs.append("\(attributes["idRegistry"] ?? "unknown") \(value.isEmpty ? "unknown" : value)")
        case "Duration" where linear != nil:
            linear?.duration = clockTime(value, "<Duration>", consequence: "the ad's duration is unknown")
        case "MediaFile" where linear != nil:
            if !value.isEmpty {
                linear?.mediaFiles.append(VASTMediaFile(
                    url: value, delivery: attributes["delivery"], mimeType: attributes["type"],
                    width: size(attributes["width"], "<MediaFile> width"), height: size(attributes["height"], "<MediaFile> height"),
                    bitrate: integer(attributes["bitrate"], "<MediaFile> bitrate (kbit/s)", range: 0...Self.largestBitrate),
                    codec: attributes["codec"]))
            }
        case "ClickThrough" where linear != nil:
            linear?.clickThrough = value
        case "ClickTracking" where linear != nil:
            if !value.isEmpty { linear?.clickTrackingURLs.append(value) }
        case "Tracking":
            guard let event = tracking(value, attributes) else { break }
            if verification != nil {
                verification?.trackingEvents.append(event)
            } else if companion != nil {
                companion?.trackingEvents.append(event)
            } else if linear != nil {
                linear?.trackingEvents.append(event)
            } else if creative != nil, path.contains("NonLinearAds") {
                creative?.nonLinearTracking.append(event)
            }
        case "StaticResource", "IFrameResource", "HTMLResource":
            let resource = name == "StaticResource" ? "static \(attributes["creativeType"] ?? "?") \(value)"
                : name == "IFrameResource" ? "iframe \(value)" : "html"
            if companion != nil { companion?.resources.append(resource) } else { nonLinear?.resources.append(resource) }
        case "CompanionClickThrough":
            companion?.clickThrough = value
        case "NonLinearClickThrough":
            nonLinear?.clickThrough = value
        case "JavaScriptResource", "ExecutableResource":
            if !value.isEmpty { verification?.resources.append(value) }
        case "VerificationParameters":
            verification?.parameters = value
        case "Verification":
            if let verification { ad?.verifications.append(verification) }
            verification = nil
        case "Companion":
            if let companion { creative?.companions.append(companion) }
            companion = nil
        case "NonLinear":
            if let nonLinear { creative?.nonLinears.append(nonLinear) }
            nonLinear = nil
        case "Linear":
            if let linear, creative?.linear == nil { creative?.linear = linear }
            linear = nil
        case "Creative":
            if let creative { ad?.creatives.append(creative) }
            creative = nil
        case "InLine" where parent(is: "Ad"):
            ad?.kind = .inline(inline)
            adHasBody = true
        case "Wrapper" where parent(is: "Ad"):
            func flag(_ name: String) -> Bool? {
                attributes[name].map { ["true", "1"].contains($0.trimmingWhitespace().lowercased()) }
            }
            ad?.kind = .wrapper(VASTWrapper(
                adTagURI: adTagURI ?? "", followAdditionalWrappers: flag("followAdditionalWrappers") ?? true,
                allowMultipleAds: flag("allowMultipleAds") ?? false, fallbackOnNoAd: flag("fallbackOnNoAd")))
            adHasBody = true
        case "Ad" where path.count == 2:
            if let ad, adHasBody {
                ads.append(ad)
            } else if let ad {
                problem("<Ad\(ad.id.map { " id=" + Self.quoted($0) } ?? "")> has neither <InLine> nor <Wrapper>: skipped")
            }
            ad = nil
        default:
            break
        }
    }
}
