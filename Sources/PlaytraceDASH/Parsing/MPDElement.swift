/// The MPD elements the reader acts on, named once as each opens so that the rest of its reading compares small
/// integers rather than strings (an element's name compared with each case of a switch was a tenth of a
/// `SegmentTimeline`'s parse, its `S` ends included).
enum MPDElement: UInt8 {
    case s, segmentTimeline, representation, adaptationSet, period, mpd
    case segmentTemplate, segmentBase, segmentList, segmentURL, initialization
    case baseURL, location, label, utcTiming, producerReferenceTime
    case eventStream, event, signal, binary, spliceInfoSection
    case role, accessibility, contentProtection, essentialProperty, supplementalProperty, inbandEventStream
    case audioChannelConfiguration, assetIdentifier
    /// Any other: read past, its children too.
    case other

    /// The element of a local name (prefix dropped): its length first, so that most names are compared with one
    /// or two others at most.
    init(localName name: String) {
        switch name.utf8.count {
        case 1: self = name == "S" ? .s : .other
        case 3: self = name == "MPD" ? .mpd : .other
        case 4: self = name == "Role" ? .role : .other
        case 5: self = name == "Event" ? .event : name == "Label" ? .label : .other
        case 6: self = name == "Period" ? .period : name == "Binary" ? .binary : name == "Signal" ? .signal : .other
        case 7: self = name == "BaseURL" ? .baseURL : .other
        case 8: self = name == "Location" ? .location : .other
        case 9: self = name == "UTCTiming" ? .utcTiming : .other
        case 10: self = name == "SegmentURL" ? .segmentURL : .other
        case 11:
            self = name == "SegmentBase" ? .segmentBase : name == "SegmentList" ? .segmentList
                : name == "EventStream" ? .eventStream : .other
        case 13: self = name == "AdaptationSet" ? .adaptationSet : name == "Accessibility" ? .accessibility : .other
        case 14: self = name == "Representation" ? .representation : name == "Initialization" ? .initialization : .other
        case 15:
            self = name == "SegmentTemplate" ? .segmentTemplate : name == "SegmentTimeline" ? .segmentTimeline
                : name == "AssetIdentifier" ? .assetIdentifier : .other
        case 17:
            self = name == "ContentProtection" ? .contentProtection : name == "EssentialProperty" ? .essentialProperty
                : name == "InbandEventStream" ? .inbandEventStream : name == "SpliceInfoSection" ? .spliceInfoSection : .other
        case 20: self = name == "SupplementalProperty" ? .supplementalProperty : .other
        case 21: self = name == "ProducerReferenceTime" ? .producerReferenceTime : .other
        case 25: self = name == "AudioChannelConfiguration" ? .audioChannelConfiguration : .other
        default: self = .other
        }
    }
}
