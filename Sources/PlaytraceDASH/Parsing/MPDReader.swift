import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PlaytraceCore

/// The XMLParser delegate of ``MPDParser``: hands each event to its reading (``MPDReading``).
///
/// Kept in the reader's own properties, the reading's state cost a run-time exclusivity check at each use, a twelfth
/// of a `SegmentTimeline`'s parse; in a struct, the compiler checks them. The one access per event that is left (a
/// check of about 80 instructions, three per element with the white space between elements) is not checked at run
/// time either: the parser calls its delegate one event at a time on the thread of `parse()`, and the reading never
/// calls back into the reader, so no two accesses to it can overlap. (ISO/IEC 23009-1 parsing at 20 times Python's
/// `mpegdash` is issue 48's floor; these checks were 5% of it.)
final class MPDReader: NSObject, XMLParserDelegate {
    @exclusivity(unchecked) private var reading: MPDReading

    init(limits: MPDParser.Limits) {
        reading = MPDReading(limits: limits)
    }

    var refusal: MPDParseError? { reading.refusal }
    var sawRoot: Bool { reading.sawRoot }

    func finish() -> MediaPresentation { reading.finish() }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String]) {
        reading.start(elementName, attributes: attributes, parser: parser)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        reading.end()
    }

    // A document type declaration could expand entities without bound: an MPD has none, so any is refused (the
    // parser checks the bytes first; these are the second line of defence).
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        reading.refuse("the document declares an entity (\(name.prefix(64))): refused", parser)
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        reading.refuse("the document declares an external entity (\(name.prefix(64))): refused", parser)
    }

    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
        reading.refuse("the document has a DTD: refused", parser)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        reading.append(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        reading.append(String(decoding: CDATABlock, as: UTF8.self))
    }
}

/// Where a reading's problems go, with their lines, up to a limit: a reference that the reading and each element's
/// ``AttributeValues`` share, touched only when there is a problem.
final class MPDProblems {
    let maximum: Int
    private(set) var listed: [MPDProblem] = []
    /// Problems past the limit, counted.
    private(set) var overLimit = 0

    init(maximum: Int) { self.maximum = maximum }

    func add(_ message: String, line: Int) {
        guard listed.count < maximum else {
            overLimit += 1
            return
        }
        listed.append(MPDProblem(line: line, message))
    }
}

/// An MPD being read, event by event (``MPDReader`` hands them over): follows the element path and fills the model as elements open and close.
/// The elements under construction are kept one per level (the period, its adaptation set, its representation…)
/// and appended to their parent when they close.
struct MPDReading {
    let limits: MPDParser.Limits
    let problems: MPDProblems
    var refusal: MPDParseError?
    private(set) var sawRoot = false

    private var presentation = MediaPresentation()
    private var period: Period?
    private var adaptationSet: AdaptationSet?
    private var representation: Representation?
    private var template: SegmentTemplate?
    private var base: SegmentBase?
    private var list: SegmentList?
    private var timeline: [SegmentTimeline.Entry]?
    private var eventStream: EventStream?
    private var event: EventStream.Event?
    private var baseURL: BaseURL?
    private var producerReference: ProducerReferenceTime?
    /// Text being gathered for the element at the top of the stack (`BaseURL`, `Location`, `Label`, an event's text or
    /// binary), and whether it was cut.
    private var text: String?
    private var textCut = false

    /// The open elements, and the line each opened on.
    private var stack: [(element: MPDElement, line: Int)] = []
    private var elementCount = 0
    private var counts = (periods: 0, representations: 0, timelineEntries: 0, events: 0)
    private var reportedLimits: Set<String> = []
    private var templateProblemsByText: [String: [String]] = [:]

    init(limits: MPDParser.Limits) {
        self.limits = limits
        problems = MPDProblems(maximum: limits.maximumProblems)
    }

    func finish() -> MediaPresentation {
        var finished = presentation
        finished.problems = problems.listed
        if problems.overLimit > 0 {
            finished.problems.append(MPDProblem(line: 0, "\(problems.overLimit) more problem(s) not listed"))
        }
        return finished
    }

    // MARK: - Problems and limits

    func problem(_ message: String, line: Int? = nil) {
        problems.add(message, line: line ?? stack.last?.line ?? 0)
    }

    mutating func refuse(_ message: String, _ parser: XMLParser) {
        refusal = refusal ?? MPDParseError(line: parser.lineNumber, message)
        parser.abortParsing()
    }

    /// What is counted against a limit.
    private enum Counted { case periods, representations, timelineEntries, events }

    /// Whether one more of a kind fits its limit; the first that does not is listed (on `line`, the element's).
    private mutating func admits(_ counted: Counted, line: Int) -> Bool {
        switch counted {
        case .periods:
            Self.admits("periods", count: &counts.periods, limit: limits.maximumPeriods, reported: &reportedLimits,
                        problems: problems, line: line)
        case .representations:
            Self.admits("representations", count: &counts.representations, limit: limits.maximumRepresentations,
                        reported: &reportedLimits, problems: problems, line: line)
        case .timelineEntries:
            Self.admits("timeline entries", count: &counts.timelineEntries, limit: limits.maximumTimelineEntries,
                        reported: &reportedLimits, problems: problems, line: line)
        case .events:
            Self.admits("events", count: &counts.events, limit: limits.maximumEvents, reported: &reportedLimits,
                        problems: problems, line: line)
        }
    }

    private static func admits(_ kind: String, count: inout Int, limit: Int, reported: inout Set<String>,
                               problems: MPDProblems, line: Int) -> Bool {
        guard count < limit else {
            if reported.insert(kind).inserted {
                problems.add("more than \(limit) \(kind): the rest are left out", line: line)
            }
            return false
        }
        count += 1
        return true
    }

    // MARK: - Events

    mutating func start(_ elementName: String, attributes: [String: String], parser: XMLParser) {
        guard refusal == nil else { return }
        elementCount += 1
        guard elementCount <= limits.maximumElements else {
            return refuse("more than \(limits.maximumElements) elements", parser)
        }
        guard stack.count < limits.maximumDepth else {
            return refuse("elements nested deeper than \(limits.maximumDepth)", parser)
        }
        // MPD elements have no prefix: the name is read as it is, and only one that names nothing is read again
        // without its prefix (`scte35:Binary`).
        var name = MPDElement(localName: elementName)
        if name == .other { name = MPDElement(localName: Self.localName(elementName)) }
        let parent = stack.last?.element
        let line = parser.lineNumber
        stack.append((name, line))
        let values = AttributeValues(attributes, line: line, problems: problems)

        guard let parent else {
            guard name == .mpd else { return refuse("the root element is <\(elementName.prefix(64))>, not <MPD>", parser) }
            sawRoot = true
            readPresentation(values)
            return
        }
        // The element of which there are most, first: a timeline's S.
        if name == .s, parent == .segmentTimeline {
            guard timeline != nil else { return }
            guard admits(.timelineEntries, line: line) else { return }
            let entry = readTimelineEntry(attributes, values: values, line: line)
            timeline?.append(entry)
            return
        }
        // An element left out (over a limit, or where it does not belong) is not built: its children, finding nothing
        // to attach to, are not read either.
        switch (parent, name) {
        case (.mpd, .period):
            guard admits(.periods, line: line) else { return }
            period = readPeriod(values, line: line)
        case (.period, .adaptationSet):
            guard period != nil else { return }
            adaptationSet = readAdaptationSet(values, line: line)
        case (.adaptationSet, .representation):
            guard adaptationSet != nil else { return }
            guard admits(.representations, line: line) else { return }
            representation = readRepresentation(values, line: line)
        case (.mpd, .baseURL), (.period, .baseURL), (.adaptationSet, .baseURL), (.representation, .baseURL):
            baseURL = BaseURL(url: "", serviceLocation: values.string("serviceLocation"),
                              availabilityTimeOffset: values.offset("availabilityTimeOffset"),
                              availabilityTimeComplete: values.boolean("availabilityTimeComplete"))
            startText()
        case (.mpd, .location), (.adaptationSet, .label):
            startText()
        case (.mpd, .utcTiming):
            if let scheme = values.required("schemeIdUri") {
                presentation.utcTimings.append(UTCTiming(scheme: .init(uri: scheme), value: values.string("value") ?? "", line: line))
            }
        case (.adaptationSet, .producerReferenceTime), (.representation, .producerReferenceTime):
            producerReference = readProducerReference(values, line: line)
        case (.producerReferenceTime, .utcTiming):
            if producerReference != nil, let scheme = values.required("schemeIdUri") {
                producerReference?.utcTiming = UTCTiming(scheme: .init(uri: scheme), value: values.string("value") ?? "", line: line)
            }
        case (.period, .segmentTemplate), (.adaptationSet, .segmentTemplate), (.representation, .segmentTemplate):
            template = readTemplate(values, line: line)
        case (.period, .segmentBase), (.adaptationSet, .segmentBase), (.representation, .segmentBase):
            var segmentBase = SegmentBase()
            segmentBase.timescale = values.positive("timescale")
            segmentBase.presentationTimeOffset = values.count("presentationTimeOffset")
            segmentBase.indexRange = values.byteRange("indexRange")
            segmentBase.availabilityTimeOffset = values.offset("availabilityTimeOffset")
            segmentBase.line = line
            base = segmentBase
        case (.period, .segmentList), (.adaptationSet, .segmentList), (.representation, .segmentList):
            var segmentList = SegmentList()
            segmentList.timescale = values.positive("timescale")
            segmentList.duration = values.positive("duration")
            segmentList.startNumber = values.count("startNumber")
            segmentList.presentationTimeOffset = values.count("presentationTimeOffset")
            segmentList.line = line
            list = segmentList
        case (.segmentTemplate, .segmentTimeline), (.segmentList, .segmentTimeline):
            timeline = []
        case (.segmentBase, .initialization), (.segmentList, .initialization):
            let initialization = URLRange(url: values.string("sourceURL"), range: values.byteRange("range"))
            if base != nil, parent == .segmentBase { base?.initialization = initialization } else { list?.initialization = initialization }
        case (.segmentList, .segmentURL):
            guard admits(.timelineEntries, line: line) else { return }
            list?.segmentURLs.append(URLRange(url: values.string("media"), range: values.byteRange("mediaRange")))
        case (.period, .eventStream):
            guard period != nil, let scheme = values.required("schemeIdUri") else { return }
            var stream = EventStream(schemeIdURI: scheme)
            stream.value = values.string("value")
            stream.timescale = values.positive("timescale") ?? 1
            stream.presentationTimeOffset = values.count("presentationTimeOffset") ?? 0
            stream.line = line
            eventStream = stream
        case (.eventStream, .event):
            guard eventStream != nil else { return }
            guard admits(.events, line: line) else { return }
            var newEvent = EventStream.Event()
            newEvent.presentationTime = values.count("presentationTime") ?? 0
            newEvent.duration = values.count("duration")
            newEvent.id = values.string("id")
            newEvent.line = line
            if let message = values.string("messageData") {
                if values.string("contentEncoding") == "base64" {
                    if let bytes = Data(base64Encoded: message, options: .ignoreUnknownCharacters) {
                        newEvent.content = .binary([UInt8](bytes))
                    } else {
                        problem("@messageData is not base64")
                    }
                } else {
                    newEvent.content = .text(message)
                }
            }
            event = newEvent
            startText()
        case (.signal, .binary):
            startText()
        case (.event, .spliceInfoSection):
            event?.content = .scte35XML(Self.summary(Self.localName(elementName), attributes))
        case (_, .role), (_, .accessibility), (_, .contentProtection), (_, .essentialProperty),
             (_, .supplementalProperty), (_, .inbandEventStream), (_, .audioChannelConfiguration), (_, .assetIdentifier):
            guard let scheme = values.required("schemeIdUri") else { return }
            attach(Descriptor(schemeIdURI: scheme, value: values.string("value"), id: values.string("id")), named: name, to: parent)
        default:
            break
        }
    }

    mutating func end() {
        guard refusal == nil, let top = stack.popLast() else { return }
        let name = top.element
        let parent = stack.last?.element
        switch name {
        case .period where parent == .mpd:
            if let period = period.take() { presentation.periods.append(period) }
        case .adaptationSet where parent == .period:
            if let adaptationSet = adaptationSet.take() { period?.adaptationSets.append(adaptationSet) }
        case .representation where parent == .adaptationSet:
            if let representation = representation.take() { adaptationSet?.representations.append(representation) }
        case .baseURL:
            if var baseURL = baseURL.take(), let url = takeText()?.trimmingXMLSpace, !url.isEmpty {
                baseURL.url = String(url)
                switch parent {
                case .mpd: presentation.baseURLs.append(baseURL)
                case .period: period?.baseURLs.append(baseURL)
                case .adaptationSet: adaptationSet?.baseURLs.append(baseURL)
                case .representation: representation?.baseURLs.append(baseURL)
                default: break
                }
            } else {
                problem("an empty BaseURL is ignored")
            }
            baseURL = nil
        case .producerReferenceTime:
            guard var reference = producerReference.take() else { break }
            // The wall clock's format is its clock's: a date, unless that clock is NTP.
            if case .ntp = reference.utcTiming?.scheme {} else {
                reference.wallClock = AttributeValues([:], line: reference.line, problems: problems)
                    .date("wallClockTime", written: reference.wallClockTime)
            }
            if parent == .representation, representation != nil {
                representation?.common.producerReferenceTimes.append(reference)
            } else if parent == .adaptationSet, adaptationSet != nil {
                adaptationSet?.common.producerReferenceTimes.append(reference)
            }
        case .location where parent == .mpd:
            if let location = takeText()?.trimmingXMLSpace, !location.isEmpty {
                presentation.locations.append(String(location))
            }
        case .label where parent == .adaptationSet:
            if let label = takeText()?.trimmingXMLSpace, !label.isEmpty {
                adaptationSet?.labels.append(String(label))
            }
        case .segmentTemplate:
            if let template = template.take() { setInformation(parent) { $0.template = template } }
        case .segmentBase:
            if let base = base.take() { setInformation(parent) { $0.base = base } }
        case .segmentList:
            if let list = list.take() { setInformation(parent) { $0.list = list } }
        case .segmentTimeline:
            let timeline = timeline.take()
            if parent == .segmentTemplate { template?.timeline = timeline } else if parent == .segmentList { list?.timeline = timeline }
        case .binary where parent == .signal:
            if let encoded = takeText() {
                if let bytes = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) {
                    event?.content = .binary([UInt8](bytes))
                } else {
                    problem("scte35:Binary is not base64")
                }
            }
        case .event where parent == .eventStream:
            let body = takeText()?.trimmingXMLSpace
            if var event = event.take() {
                if case .none = event.content, let body, !body.isEmpty { event.content = .text(String(body)) }
                eventStream?.events.append(event)
            }
        case .eventStream where parent == .period:
            if let eventStream = eventStream.take() { period?.eventStreams.append(eventStream) }
        default:
            break
        }
    }

    // MARK: - Reading elements

    private mutating func readPresentation(_ values: AttributeValues) {
        switch values.string("type") {
        case nil, "static": presentation.type = .static
        case "dynamic": presentation.type = .dynamic
        case let other?: problem("MPD@type \"\(other.prefix(64))\" is neither static nor dynamic: read as static")
        }
        presentation.id = values.string("id")
        presentation.profiles = (values.string("profiles") ?? "").split(separator: ",")
            .map { String($0.trimmingXMLSpace) }.filter { !$0.isEmpty }
        presentation.availabilityStartTime = values.date("availabilityStartTime")
        presentation.availabilityEndTime = values.date("availabilityEndTime")
        presentation.publishTime = values.date("publishTime")
        presentation.mediaPresentationDuration = values.duration("mediaPresentationDuration")
        presentation.minimumUpdatePeriod = values.duration("minimumUpdatePeriod")
        presentation.minBufferTime = values.duration("minBufferTime")
        presentation.timeShiftBufferDepth = values.duration("timeShiftBufferDepth")
        presentation.suggestedPresentationDelay = values.duration("suggestedPresentationDelay")
        presentation.maxSegmentDuration = values.duration("maxSegmentDuration")
        if presentation.type == .dynamic, presentation.availabilityStartTime == nil {
            problem("a dynamic MPD without availabilityStartTime: its live edge cannot be placed")
        }
    }

    private func readPeriod(_ values: AttributeValues, line: Int) -> Period {
        var period = Period()
        period.id = values.string("id")
        period.start = values.duration("start")
        period.duration = values.duration("duration")
        period.line = line
        return period
    }

    private func readAdaptationSet(_ values: AttributeValues, line: Int) -> AdaptationSet {
        var set = AdaptationSet()
        set.id = values.string("id")
        set.contentType = values.string("contentType")
        set.lang = values.string("lang")
        set.group = values.count("group")
        set.segmentAlignment = values.boolean("segmentAlignment")
        set.bitstreamSwitching = values.boolean("bitstreamSwitching")
        set.common = readCommon(values)
        set.line = line
        return set
    }

    private func readRepresentation(_ values: AttributeValues, line: Int) -> Representation {
        var representation = Representation()
        representation.id = values.string("id")
        if representation.id == nil { problem("a Representation without @id") }
        representation.bandwidth = values.count("bandwidth")
        if representation.bandwidth == nil { problem("a Representation without @bandwidth") }
        representation.qualityRanking = values.count("qualityRanking")
        representation.dependencyID = (values.string("dependencyId") ?? "").split(separator: " ").map(String.init)
        representation.common = readCommon(values)
        representation.line = line
        return representation
    }

    private func readCommon(_ values: AttributeValues) -> CommonAttributes {
        var common = CommonAttributes()
        common.mimeType = values.string("mimeType")
        common.codecs = values.string("codecs")
        common.width = values.positive("width")
        common.height = values.positive("height")
        if let text = values.string("frameRate") {
            common.frameRate = FrameRate(text)
            if common.frameRate == nil { problem("@frameRate \"\(text.prefix(64))\" is not a frame rate") }
        }
        common.sar = values.string("sar")
        common.audioSamplingRate = values.string("audioSamplingRate")
        common.startWithSAP = values.count("startWithSAP")
        common.maxPlayoutRate = values.offset("maxPlayoutRate")
        return common
    }

    /// A `ProducerReferenceTime`; `nil` (and said) without one of the three attributes that make it (dash.js ignores
    /// such an element too).
    private func readProducerReference(_ values: AttributeValues, line: Int) -> ProducerReferenceTime? {
        guard let idText = values.required("id"), let wallClockTime = values.required("wallClockTime"),
              let presentationText = values.required("presentationTime") else { return nil }
        guard let id = values.count("id", written: idText),
              let presentationTime = values.count("presentationTime", written: presentationText) else {
            problem("a ProducerReferenceTime without a usable @id or @presentationTime is ignored", line: line)
            return nil
        }
        var reference = ProducerReferenceTime(id: id, wallClockTime: String(wallClockTime.trimmingXMLSpace),
                                              presentationTime: presentationTime)
        reference.inband = values.boolean("inband") ?? false
        if let type = values.string("type") {
            if let kind = ProducerReferenceTime.Kind(rawValue: String(type.trimmingXMLSpace)) {
                reference.kind = kind
            } else {
                problem("ProducerReferenceTime@type \"\(type.prefix(64))\" is not encoder, captured or application: read as encoder",
                        line: line)
            }
        }
        reference.applicationScheme = values.string("applicationScheme")
        reference.line = line
        return reference
    }

    private mutating func readTemplate(_ values: AttributeValues, line: Int) -> SegmentTemplate {
        var template = SegmentTemplate()
        template.media = values.string("media")
        template.initialization = values.string("initialization")
        template.index = values.string("index")
        template.timescale = values.positive("timescale")
        template.duration = values.positive("duration")
        template.startNumber = values.count("startNumber")
        template.endNumber = values.count("endNumber")
        template.presentationTimeOffset = values.count("presentationTimeOffset")
        template.availabilityTimeOffset = values.offset("availabilityTimeOffset")
        template.line = line
        for text in [template.media, template.initialization, template.index].compactMap({ $0 }) {
            for issue in templateProblems(text) { problem(issue) }
        }
        return template
    }

    /// An `S`: its attributes visited once (an MPD may hold a million; a lookup by name hashes the name), each read as
    /// ``AttributeValues`` reads it.
    private func readTimelineEntry(_ attributes: [String: String], values: AttributeValues, line: Int) -> SegmentTimeline.Entry {
        var entry = SegmentTimeline.Entry(duration: nil, line: line)
        for (name, value) in attributes {
            switch name {
            case "t": entry.time = values.count(name, written: value)
            case "d": entry.duration = values.positive(name, written: value)
            case "r": entry.repeatCount = values.integer(name, written: value) ?? 0
            default: break
            }
        }
        return entry
    }

    /// What a URL template's text holds that the standard does not define: read once per distinct text (a
    /// multi-period MPD repeats its templates in every period).
    private mutating func templateProblems(_ text: String) -> [String] {
        if let known = templateProblemsByText[text] { return known }
        let problems = SegmentURLTemplate(text).problems
        if templateProblemsByText.count < 1_000 { templateProblemsByText[text] = problems }
        return problems
    }

    // MARK: - Attaching

    private mutating func setInformation(_ parent: MPDElement?, _ change: (inout SegmentInformation) -> Void) {
        switch parent {
        case .period: if period != nil { change(&period!.segmentInformation) }
        case .adaptationSet: if adaptationSet != nil { change(&adaptationSet!.segmentInformation) }
        case .representation: if representation != nil { change(&representation!.segmentInformation) }
        default: break
        }
    }

    private mutating func attach(_ descriptor: Descriptor, named name: MPDElement, to parent: MPDElement) {
        func common(_ change: (inout CommonAttributes) -> Void) {
            if parent == .representation, representation != nil {
                change(&representation!.common)
            } else if parent == .adaptationSet, adaptationSet != nil {
                change(&adaptationSet!.common)
            }
        }
        switch (name, parent) {
        case (.role, .adaptationSet): adaptationSet?.roles.append(descriptor)
        case (.accessibility, .adaptationSet): adaptationSet?.accessibility.append(descriptor)
        case (.assetIdentifier, .period): period?.assetIdentifier = descriptor
        case (.essentialProperty, .mpd): presentation.essentialProperties.append(descriptor)
        case (.supplementalProperty, .mpd): presentation.supplementalProperties.append(descriptor)
        case (.essentialProperty, .period): period?.essentialProperties.append(descriptor)
        case (.supplementalProperty, .period): period?.supplementalProperties.append(descriptor)
        case (.contentProtection, _): common { $0.contentProtection.append(descriptor) }
        case (.essentialProperty, _): common { $0.essentialProperties.append(descriptor) }
        case (.supplementalProperty, _): common { $0.supplementalProperties.append(descriptor) }
        case (.inbandEventStream, _): common { $0.inbandEventStreams.append(descriptor) }
        case (.audioChannelConfiguration, _): common { $0.audioChannelConfiguration.append(descriptor) }
        default: break
        }
    }

    // MARK: - Text

    private mutating func startText() {
        text = ""
        textCut = false
    }

    mutating func append(_ string: String) {
        guard text != nil else { return }
        let room = limits.maximumTextBytes - (text?.utf8.count ?? 0)
        guard room > 0 else {
            if !textCut { problem("text longer than \(limits.maximumTextBytes) bytes is cut") }
            textCut = true
            return
        }
        if string.utf8.count <= room {
            text? += string
        } else {
            text? += String(decoding: string.utf8.prefix(room), as: UTF8.self)
            if !textCut { problem("text longer than \(limits.maximumTextBytes) bytes is cut") }
            textCut = true
        }
    }

    private mutating func takeText() -> String? {
        defer { text = nil }
        return text
    }

    // MARK: - Names

    /// The name without its namespace prefix (`scte35:Binary` → `Binary`).
    static func localName(_ name: String) -> String {
        guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return String(name[name.utf8.index(after: colon)...])
    }

    /// An element and its attributes in one line, for `inspect`.
    static func summary(_ name: String, _ attributes: [String: String]) -> String {
        let listed = attributes.sorted { $0.key < $1.key }.prefix(16).map { "\($0.key)=\($0.value.prefix(64))" }
        return ([name] + listed).joined(separator: " ")
    }
}
