import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PlaytraceCore

/// The XMLParser delegate of ``MPDParser``: follows the element path and fills the model as elements open and close.
/// The elements under construction are kept one per level (the period, its adaptation set, its representation…)
/// and appended to their parent when they close.
final class MPDReader: NSObject, XMLParserDelegate {
    let limits: MPDParser.Limits
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

    /// The local names of the open elements (prefixes dropped), and the line each opened on.
    private var stack: [(name: String, line: Int)] = []
    private var elementCount = 0
    private var counts = (periods: 0, representations: 0, timelineEntries: 0, events: 0)
    private var problemsOverLimit = 0
    private var reportedLimits: Set<String> = []
    private var templateProblemsByText: [String: [String]] = [:]

    init(limits: MPDParser.Limits) {
        self.limits = limits
    }

    func finish() -> MediaPresentation {
        if problemsOverLimit > 0 {
            presentation.problems.append(MPDProblem(line: 0, "\(problemsOverLimit) more problem(s) not listed"))
        }
        return presentation
    }

    // MARK: - Problems and limits

    func problem(_ message: String, line: Int? = nil) {
        guard presentation.problems.count < limits.maximumProblems else {
            problemsOverLimit += 1
            return
        }
        presentation.problems.append(MPDProblem(line: line ?? stack.last?.line ?? 0, message))
    }

    private func refuse(_ message: String, _ parser: XMLParser) {
        refusal = refusal ?? MPDParseError(line: parser.lineNumber, message)
        parser.abortParsing()
    }

    /// Whether one more of a kind fits its limit; the first that does not is listed.
    private func admits(_ kind: String, count: inout Int, limit: Int) -> Bool {
        guard count < limit else {
            if reportedLimits.insert(kind).inserted {
                problem("more than \(limit) \(kind): the rest are left out")
            }
            return false
        }
        count += 1
        return true
    }

    // MARK: - XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String]) {
        guard refusal == nil else { return }
        elementCount += 1
        guard elementCount <= limits.maximumElements else {
            return refuse("more than \(limits.maximumElements) elements", parser)
        }
        guard stack.count < limits.maximumDepth else {
            return refuse("elements nested deeper than \(limits.maximumDepth)", parser)
        }
        let name = Self.localName(elementName)
        let parent = stack.last?.name
        let line = parser.lineNumber
        stack.append((name, line))
        let values = AttributeValues(attributes, line: line, reader: self)

        guard let parent else {
            guard name == "MPD" else { return refuse("the root element is <\(elementName.prefix(64))>, not <MPD>", parser) }
            sawRoot = true
            readPresentation(values)
            return
        }
        // The element of which there are most, first: a timeline's S.
        if name == "S", parent == "SegmentTimeline" {
            guard timeline != nil else { return }
            guard admits("timeline entries", count: &counts.timelineEntries, limit: limits.maximumTimelineEntries) else { return }
            timeline?.append(readTimelineEntry(attributes, values: values, line: line))
            return
        }
        // An element left out (over a limit, or where it does not belong) is not built: its children, finding nothing
        // to attach to, are not read either.
        switch (parent, name) {
        case ("MPD", "Period"):
            guard admits("periods", count: &counts.periods, limit: limits.maximumPeriods) else { return }
            period = readPeriod(values, line: line)
        case ("Period", "AdaptationSet"):
            guard period != nil else { return }
            adaptationSet = readAdaptationSet(values, line: line)
        case ("AdaptationSet", "Representation"):
            guard adaptationSet != nil else { return }
            guard admits("representations", count: &counts.representations, limit: limits.maximumRepresentations)
            else { return }
            representation = readRepresentation(values, line: line)
        case ("MPD", "BaseURL"), ("Period", "BaseURL"), ("AdaptationSet", "BaseURL"), ("Representation", "BaseURL"):
            baseURL = BaseURL(url: "", serviceLocation: values.string("serviceLocation"),
                              availabilityTimeOffset: values.offset("availabilityTimeOffset"),
                              availabilityTimeComplete: values.boolean("availabilityTimeComplete"))
            startText()
        case ("MPD", "Location"), ("AdaptationSet", "Label"):
            startText()
        case ("MPD", "UTCTiming"):
            if let scheme = values.required("schemeIdUri") {
                presentation.utcTimings.append(UTCTiming(scheme: .init(uri: scheme), value: values.string("value") ?? "", line: line))
            }
        case ("AdaptationSet", "ProducerReferenceTime"), ("Representation", "ProducerReferenceTime"):
            producerReference = readProducerReference(values, line: line)
        case ("ProducerReferenceTime", "UTCTiming"):
            if producerReference != nil, let scheme = values.required("schemeIdUri") {
                producerReference?.utcTiming = UTCTiming(scheme: .init(uri: scheme), value: values.string("value") ?? "", line: line)
            }
        case ("Period", "SegmentTemplate"), ("AdaptationSet", "SegmentTemplate"), ("Representation", "SegmentTemplate"):
            template = readTemplate(values, line: line)
        case ("Period", "SegmentBase"), ("AdaptationSet", "SegmentBase"), ("Representation", "SegmentBase"):
            var segmentBase = SegmentBase()
            segmentBase.timescale = values.positive("timescale")
            segmentBase.presentationTimeOffset = values.count("presentationTimeOffset")
            segmentBase.indexRange = values.byteRange("indexRange")
            segmentBase.availabilityTimeOffset = values.offset("availabilityTimeOffset")
            segmentBase.line = line
            base = segmentBase
        case ("Period", "SegmentList"), ("AdaptationSet", "SegmentList"), ("Representation", "SegmentList"):
            var segmentList = SegmentList()
            segmentList.timescale = values.positive("timescale")
            segmentList.duration = values.positive("duration")
            segmentList.startNumber = values.count("startNumber")
            segmentList.presentationTimeOffset = values.count("presentationTimeOffset")
            segmentList.line = line
            list = segmentList
        case ("SegmentTemplate", "SegmentTimeline"), ("SegmentList", "SegmentTimeline"):
            timeline = []
        case ("SegmentBase", "Initialization"), ("SegmentList", "Initialization"):
            let initialization = URLRange(url: values.string("sourceURL"), range: values.byteRange("range"))
            if base != nil, parent == "SegmentBase" { base?.initialization = initialization } else { list?.initialization = initialization }
        case ("SegmentList", "SegmentURL"):
            guard admits("timeline entries", count: &counts.timelineEntries, limit: limits.maximumTimelineEntries) else { return }
            list?.segmentURLs.append(URLRange(url: values.string("media"), range: values.byteRange("mediaRange")))
        case ("Period", "EventStream"):
            guard period != nil, let scheme = values.required("schemeIdUri") else { return }
            var stream = EventStream(schemeIdURI: scheme)
            stream.value = values.string("value")
            stream.timescale = values.positive("timescale") ?? 1
            stream.presentationTimeOffset = values.count("presentationTimeOffset") ?? 0
            stream.line = line
            eventStream = stream
        case ("EventStream", "Event"):
            guard eventStream != nil else { return }
            guard admits("events", count: &counts.events, limit: limits.maximumEvents) else { return }
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
        case ("Signal", "Binary"):
            startText()
        case ("Event", "SpliceInfoSection"):
            event?.content = .scte35XML(Self.summary(name, attributes))
        case (_, "Role"), (_, "Accessibility"), (_, "ContentProtection"), (_, "EssentialProperty"),
             (_, "SupplementalProperty"), (_, "InbandEventStream"), (_, "AudioChannelConfiguration"), (_, "AssetIdentifier"):
            guard let scheme = values.required("schemeIdUri") else { return }
            attach(Descriptor(schemeIdURI: scheme, value: values.string("value"), id: values.string("id")), named: name, to: parent)
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard refusal == nil, let top = stack.popLast() else { return }
        let name = top.name
        let parent = stack.last?.name
        switch name {
        case "Period" where parent == "MPD":
            if let period = period.take() { presentation.periods.append(period) }
        case "AdaptationSet" where parent == "Period":
            if let adaptationSet = adaptationSet.take() { period?.adaptationSets.append(adaptationSet) }
        case "Representation" where parent == "AdaptationSet":
            if let representation = representation.take() { adaptationSet?.representations.append(representation) }
        case "BaseURL":
            if var baseURL = baseURL.take(), let url = takeText()?.trimmingXMLSpace, !url.isEmpty {
                baseURL.url = String(url)
                switch parent {
                case "MPD": presentation.baseURLs.append(baseURL)
                case "Period": period?.baseURLs.append(baseURL)
                case "AdaptationSet": adaptationSet?.baseURLs.append(baseURL)
                case "Representation": representation?.baseURLs.append(baseURL)
                default: break
                }
            } else {
                problem("an empty BaseURL is ignored")
            }
            baseURL = nil
        case "ProducerReferenceTime":
            guard var reference = producerReference.take() else { break }
            // The wall clock's format is its clock's: a date, unless that clock is NTP.
            if case .ntp = reference.utcTiming?.scheme {} else {
                reference.wallClock = AttributeValues([:], line: reference.line, reader: self)
                    .date("wallClockTime", written: reference.wallClockTime)
            }
            if parent == "Representation", representation != nil {
                representation?.common.producerReferenceTimes.append(reference)
            } else if parent == "AdaptationSet", adaptationSet != nil {
                adaptationSet?.common.producerReferenceTimes.append(reference)
            }
        case "Location" where parent == "MPD":
            if let location = takeText()?.trimmingXMLSpace, !location.isEmpty {
                presentation.locations.append(String(location))
            }
        case "Label" where parent == "AdaptationSet":
            if let label = takeText()?.trimmingXMLSpace, !label.isEmpty {
                adaptationSet?.labels.append(String(label))
            }
        case "SegmentTemplate":
            if let template = template.take() { setInformation(parent) { $0.template = template } }
        case "SegmentBase":
            if let base = base.take() { setInformation(parent) { $0.base = base } }
        case "SegmentList":
            if let list = list.take() { setInformation(parent) { $0.list = list } }
        case "SegmentTimeline":
            let timeline = timeline.take()
            if parent == "SegmentTemplate" { template?.timeline = timeline } else if parent == "SegmentList" { list?.timeline = timeline }
        case "Binary" where parent == "Signal":
            if let encoded = takeText() {
                if let bytes = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) {
                    event?.content = .binary([UInt8](bytes))
                } else {
                    problem("scte35:Binary is not base64")
                }
            }
        case "Event" where parent == "EventStream":
            let body = takeText()?.trimmingXMLSpace
            if var event = event.take() {
                if case .none = event.content, let body, !body.isEmpty { event.content = .text(String(body)) }
                eventStream?.events.append(event)
            }
        case "EventStream" where parent == "Period":
            if let eventStream = eventStream.take() { period?.eventStreams.append(eventStream) }
        default:
            break
        }
    }

    // A document type declaration could expand entities without bound: an MPD has none, so any is refused (the
    // parser checks the bytes first; these are the second line of defence).
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        refuse("the document declares an entity (\(name.prefix(64))): refused", parser)
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        refuse("the document declares an external entity (\(name.prefix(64))): refused", parser)
    }

    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
        refuse("the document has a DTD: refused", parser)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        append(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        append(String(decoding: CDATABlock, as: UTF8.self))
    }

    // MARK: - Reading elements

    private func readPresentation(_ values: AttributeValues) {
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

    private func readTemplate(_ values: AttributeValues, line: Int) -> SegmentTemplate {
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
    private func templateProblems(_ text: String) -> [String] {
        if let known = templateProblemsByText[text] { return known }
        let problems = SegmentURLTemplate(text).problems
        if templateProblemsByText.count < 1_000 { templateProblemsByText[text] = problems }
        return problems
    }

    // MARK: - Attaching

    private func setInformation(_ parent: String?, _ change: (inout SegmentInformation) -> Void) {
        switch parent {
        case "Period": if period != nil { change(&period!.segmentInformation) }
        case "AdaptationSet": if adaptationSet != nil { change(&adaptationSet!.segmentInformation) }
        case "Representation": if representation != nil { change(&representation!.segmentInformation) }
        default: break
        }
    }

    private func attach(_ descriptor: Descriptor, named name: String, to parent: String) {
        func common(_ change: (inout CommonAttributes) -> Void) {
            if parent == "Representation", representation != nil {
                change(&representation!.common)
            } else if parent == "AdaptationSet", adaptationSet != nil {
                change(&adaptationSet!.common)
            }
        }
        switch (name, parent) {
        case ("Role", "AdaptationSet"): adaptationSet?.roles.append(descriptor)
        case ("Accessibility", "AdaptationSet"): adaptationSet?.accessibility.append(descriptor)
        case ("AssetIdentifier", "Period"): period?.assetIdentifier = descriptor
        case ("EssentialProperty", "MPD"): presentation.essentialProperties.append(descriptor)
        case ("SupplementalProperty", "MPD"): presentation.supplementalProperties.append(descriptor)
        case ("EssentialProperty", "Period"): period?.essentialProperties.append(descriptor)
        case ("SupplementalProperty", "Period"): period?.supplementalProperties.append(descriptor)
        case ("ContentProtection", _): common { $0.contentProtection.append(descriptor) }
        case ("EssentialProperty", _): common { $0.essentialProperties.append(descriptor) }
        case ("SupplementalProperty", _): common { $0.supplementalProperties.append(descriptor) }
        case ("InbandEventStream", _): common { $0.inbandEventStreams.append(descriptor) }
        case ("AudioChannelConfiguration", _): common { $0.audioChannelConfiguration.append(descriptor) }
        default: break
        }
    }

    // MARK: - Text

    private func startText() {
        text = ""
        textCut = false
    }

    private func append(_ string: String) {
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

    private func takeText() -> String? {
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
