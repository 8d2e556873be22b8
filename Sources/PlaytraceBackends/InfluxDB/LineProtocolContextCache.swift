import PlaytraceCore
import PlaytraceTelemetry
import Synchronization

extension LineProtocolEncoder {
    /// What an encoder made of the last tracker context and metric dimensions it wrote, reused while events and
    /// metrics share them (`Event.context`, `Metric.dimensions`). Keep one per stream of events.
    public struct ContextCache: Sendable {
        private var context = AttributeList()
        private var contextKey: TagKey?
        /// The context's tags (`,name=value`…) and fields (`,name=value,name=value`: written after a separator
        /// of their own, from ``contextFieldsStart``). Rebuilt in place when the context changes (no allocation).
        private(set) var contextTags = LineBuffer()
        private(set) var contextFields = LineBuffer()
        private(set) var contextFieldsStart = 0

        private var playbackIdentifier: PlaybackIdentifier?
        private var playbackTag = LineBuffer()

        private var dimensions = AttributeList()
        private var dimensionsKey: TagKey?
        /// The dimensions' tags, but the playback id's, which ``dimensionPlaybackTag`` holds: a new playback of the
        /// same content rewrites only that one.
        private(set) var dimensionTags = LineBuffer()
        private(set) var dimensionPlaybackTag = LineBuffer()

        /// The digits of the last timestamp written.
        var timestamps = TimestampText()

        public init() {}

        mutating func prepare(_ context: AttributeList, for encoder: LineProtocolEncoder) {
            let key = encoder.tagKey
            guard contextKey != key || !self.context.isIdentical(to: context) else { return }
            self.context = context
            contextKey = key
            contextTags.removeAll(keepingCapacity: true)
            var tags = LineWriter(taking: &contextTags)
            var tagSeparator = FieldSeparator()
            encoder.writeEntries(of: context, tags: true, fields: &tagSeparator, to: &tags)
            tags.finish(into: &contextTags)
            contextFields.removeAll(keepingCapacity: true)
            var fields = LineWriter(taking: &contextFields)
            var fieldSeparator = FieldSeparator(started: true)
            encoder.writeEntries(of: context, tags: false, fields: &fieldSeparator, to: &fields)
            fields.finish(into: &contextFields)
            // The block follows its own separator: the first field's is left out.
            contextFieldsStart = contextFields.count > 0 ? 1 : 0
        }

        /// Whether the context has fields.
        var hasContextFields: Bool { contextFields.count > contextFieldsStart }

        /// Writes the context's fields, without the first one's separator.
        func writeContextFields(to line: inout LineWriter) {
            contextFields.copy(to: &line, from: contextFieldsStart)
        }

        /// Writes `,playbackId=<id>`, escaped once per playback (nothing for a text no tag can hold).
        mutating func writePlaybackTag(_ id: PlaybackIdentifier, to line: inout LineWriter) {
            if id != playbackIdentifier {
                playbackIdentifier = id
                playbackTag.removeAll(keepingCapacity: true)
                if case .text(let text) = id, !LineProtocolEncoder.isWritableTagText(text) { return }
                var tag = LineWriter(taking: &playbackTag)
                tag.ascii(",playbackId=")
                switch id {
                case .uuid(let uuid):
                    // Hexadecimal digits and hyphens: nothing to escape.
                    var text = uuid.description
                    text.withUTF8Span { tag.bytes($0) }
                case .text(let text):
                    LineProtocolEncoder.writeTagText(text, to: &tag)
                }
                tag.finish(into: &playbackTag)
            }
            playbackTag.copy(to: &line)
        }

        mutating func prepareDimensions(_ dimensions: AttributeList, for encoder: LineProtocolEncoder) {
            let key = encoder.tagKey
            guard dimensionsKey != key || !self.dimensions.isIdentical(to: dimensions) else { return }
            let samePlaybackless = dimensionsKey == key && Self.equalButPlaybackID(self.dimensions, dimensions)
            self.dimensions = dimensions
            dimensionsKey = key
            dimensionPlaybackTag.removeAll(keepingCapacity: true)
            var playbackTag = LineWriter(taking: &dimensionPlaybackTag)
            var tags = samePlaybackless ? nil : Optional(LineWriter(taking: &dimensionTags, emptied: true))
            dimensions.withEntries { entries in
                for index in entries.indices {
                    if entries[index].attribute.id == Attribute.ID.playbackId {
                        encoder.writeTag(entries[index], to: &playbackTag)
                    } else if tags != nil {
                        encoder.writeTag(entries[index], to: &tags!)
                    }
                }
            }
            playbackTag.finish(into: &dimensionPlaybackTag)
            tags?.finish(into: &dimensionTags)
        }

        /// Whether two dimension lists hold the same attributes, in the same order, with the same values, but the
        /// playback id.
        private static func equalButPlaybackID(_ old: AttributeList, _ new: AttributeList) -> Bool {
            guard old.count == new.count else { return false }
            return old.withEntries { old in
                new.withEntries { new in
                    for index in old.indices {
                        guard old[index].attribute == new[index].attribute else { return false }
                        if old[index].attribute.id != Attribute.ID.playbackId, old[index].value != new[index].value {
                            return false
                        }
                    }
                    return true
                }
            }
        }

        /// Writes the dimensions' tags.
        func writeDimensionTags(to line: inout LineWriter) {
            dimensionTags.copy(to: &line)
            dimensionPlaybackTag.copy(to: &line)
        }
    }

    /// Identifies an encoder's choice of tags, for caches: a new one each time the choice is made.
    struct TagKey: Sendable, Hashable {
        private static let last = Atomic<UInt64>(0)
        let value: UInt64

        static func next() -> TagKey { TagKey(value: last.add(1, ordering: .relaxed).newValue) }
    }
}
