public import Foundation
public import PlaytraceCore

/// What an item plays, with the metadata retrieved for it.
///
/// ```swift
/// Asset.simple(url: streamURL, metadata: media)
/// Asset.unavailable(BusinessError.geoblocked, metadata: media)   // shown with its metadata, never played
/// ```
public struct Asset<Metadata: AssetMetadata>: Sendable {
    /// How the content is obtained.
    public enum Resource: Sendable {
        /// A URL the engine plays directly.
        case simple(URL)
        /// The content cannot be played (a business rule, a missing right): the item fails with this error.
        case unavailable(any Error)
    }

    public var resource: Resource
    /// The metadata, handed to the player (as ``PlayerMetadata``) and to the item's tracker adapters.
    public var metadata: Metadata
    /// Where to start, when not at the default position.
    public var startPosition: MediaTime?

    public init(resource: Resource, metadata: Metadata, startPosition: MediaTime? = nil) {
        self.resource = resource
        self.metadata = metadata
        self.startPosition = startPosition
    }

    /// A URL to play.
    public static func simple(url: URL, metadata: Metadata, startPosition: MediaTime? = nil) -> Asset {
        Asset(resource: .simple(url), metadata: metadata, startPosition: startPosition)
    }

    /// A URL to play, starting where `configuration` says (Pillarbox's `Asset.simple(url:metadata:configuration:)`).
    public static func simple(url: URL, metadata: Metadata, configuration: PlaybackConfiguration) -> Asset {
        Asset(resource: .simple(url), metadata: metadata, startPosition: configuration.position?.time)
    }

    /// Content that cannot be played, with its metadata.
    public static func unavailable(_ error: any Error, metadata: Metadata) -> Asset {
        Asset(resource: .unavailable(error), metadata: metadata)
    }
}

public extension Asset where Metadata == EmptyAssetMetadata {
    /// A URL to play, without metadata.
    static func simple(url: URL, startPosition: MediaTime? = nil) -> Asset {
        Asset(resource: .simple(url), metadata: EmptyAssetMetadata(), startPosition: startPosition)
    }

    /// A URL to play without metadata, starting where `configuration` says.
    static func simple(url: URL, configuration: PlaybackConfiguration) -> Asset {
        Asset(resource: .simple(url), metadata: EmptyAssetMetadata(), startPosition: configuration.position?.time)
    }

    /// Content that cannot be played, without metadata.
    static func unavailable(_ error: any Error) -> Asset {
        Asset(resource: .unavailable(error), metadata: EmptyAssetMetadata())
    }
}

/// No metadata.
public struct EmptyAssetMetadata: AssetMetadata, Hashable {
    public init() {}
    public var playerMetadata: PlayerMetadata { .empty }
}
