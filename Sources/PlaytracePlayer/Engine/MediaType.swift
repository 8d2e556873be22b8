/// Whether an item is audio or video.
public enum MediaType: String, Sendable, Hashable, Codable {
    case unknown
    case audio
    case video

    /// What a set of variants holds: video when any declares a resolution or a video codec, audio when all
    /// declare only audio codecs, unknown otherwise.
    public init(variants: [VariantInfo]) {
        let videoCodecs = ["avc1", "avc3", "hvc1", "hev1", "av01", "vp09", "vp8", "dvh1", "dvhe", "mp4v"]
        let audioCodecs = ["mp4a", "ac-3", "ec-3", "opus", "flac", "alac", "ac-4", "mp3"]
        func prefix(_ codec: String) -> String { String(codec.lowercased().prefix { $0 != "." }) }
        if variants.contains(where: { $0.height != nil || $0.codecs.contains { videoCodecs.contains(prefix($0)) } }) {
            self = .video
        } else if !variants.isEmpty, variants.allSatisfy({ variant in
            !variant.codecs.isEmpty && variant.codecs.allSatisfy { audioCodecs.contains(prefix($0)) }
        }) {
            self = .audio
        } else {
            self = .unknown
        }
    }
}
