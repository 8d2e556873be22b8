import PlaytraceCore

/// A tracker that runs on its own actor: the player hands it each call and goes on at once, so a tracker that
/// takes 50 ms over an update, or blocks on I/O, delays only itself (Pillarbox runs every tracker on a background
/// queue for that reason).
///
/// ``PlayerItemTracker``s run on the main actor, in step with the player: right for trackers that must act at the
/// instant something happens (ad beacons, scripted viewers) and cheap ones. Anything slow belongs here. The life
/// cycle is the same, in the same order; the player's calls reach the tracker in order, with property updates
/// coalesced while it is busy (it gets the latest). It reads the player through the properties it receives:
/// ``TrackerProperties/current()`` for a fresh reading.
///
/// Its actor runs on Swift's shared pool of threads (as many as cores): slow work is fine there, but work that
/// blocks its thread (synchronous I/O) holds one of those threads meanwhile. Prefer asynchronous I/O, or hand
/// blocking calls to a thread of their own.
///
/// ```swift
/// actor ReportingTracker: AsyncPlayerItemTracker {
///     init(configuration: Void) {}
///     func enable(with properties: TrackerProperties) {}
///     func updateMetadata(to metadata: Void) {}
///     func updateProperties(to properties: TrackerProperties) {}
///     func disable(with properties: TrackerProperties) { /* a slow upload is fine here */ }
/// }
/// let item = PlayerItem.simple(url: url, trackerAdapters: [ReportingTracker.adapter()])
/// ```
public protocol AsyncPlayerItemTracker: Actor {
    /// What the tracker needs to be set up (`Void` when nothing).
    associatedtype Configuration: Sendable
    /// What the tracker needs to know about the item (`Void` when nothing).
    associatedtype Metadata: Sendable

    /// Creates the tracker, when its item is created.
    init(configuration: Configuration)
    /// A playback session of the item begins; `properties` are the player's at that instant.
    func enable(with properties: TrackerProperties)
    /// The item's metadata changed.
    func updateMetadata(to metadata: Metadata)
    /// The player's properties changed (only while enabled; the latest when several came while the tracker was
    /// busy).
    func updateProperties(to properties: TrackerProperties)
    /// The session's metric events so far, oldest first (only while enabled).
    func updateMetricEvents(to events: [MetricEvent])
    /// The playback session ends.
    func disable(with properties: TrackerProperties)
    /// Identifies the tracker's current session with its service, when it has one (read after each enable and
    /// disable, for the player's `currentSessionIdentifiers(trackedBy:)`).
    var sessionIdentifier: String? { get }
}

public extension AsyncPlayerItemTracker {
    func updateMetricEvents(to events: [MetricEvent]) {}
    var sessionIdentifier: String? { nil }
}

/// Runs an ``AsyncPlayerItemTracker`` for the player: a main-actor tracker whose every call only posts a message
/// to a mailbox, which a task of its own delivers to the tracker's actor, in order.
@MainActor
final class AsyncTrackerBridge<Tracker: AsyncPlayerItemTracker>: PlayerItemTracker {
    typealias Configuration = Tracker.Configuration
    typealias Metadata = Tracker.Metadata

    enum Message: Sendable {
        case enable(TrackerProperties)
        case metadata(Metadata)
        case properties(TrackerProperties)
        case metricEvents([MetricEvent])
        case disable(TrackerProperties)
    }

    /// Messages waiting for the tracker, shared with the delivering task (which outlives the bridge until they are
    /// all delivered).
    final class Mailbox: Sendable {
        let messages = Locked<[Message]>([])
        let sessionIdentifier = Locked<String?>(nil)

        /// Adds a message; a property update replaces one still waiting at the end of the queue.
        func post(_ message: Message) {
            messages.withLock { queue in
                if case .properties = message, case .properties? = queue.last {
                    queue[queue.count - 1] = message
                } else {
                    queue.append(message)
                }
            }
        }

        func take() -> [Message] {
            messages.withLock { queue in
                let taken = queue
                queue.removeAll(keepingCapacity: true)
                return taken
            }
        }
    }

    private let mailbox = Mailbox()
    private let wake: AsyncStream<Void>.Continuation

    init(configuration: Configuration) {
        let tracker = Tracker(configuration: configuration)
        let (signals, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        let mailbox = self.mailbox
        Task.detached {
            for await _ in signals {
                for message in mailbox.take() { await Self.deliver(message, to: tracker, mailbox: mailbox) }
            }
            for message in mailbox.take() { await Self.deliver(message, to: tracker, mailbox: mailbox) }
        }
    }

    isolated deinit { wake.finish() }

    private static func deliver(_ message: Message, to tracker: Tracker, mailbox: Mailbox) async {
        switch message {
        case .enable(let properties):
            await tracker.enable(with: properties)
            let identifier = await tracker.sessionIdentifier
            mailbox.sessionIdentifier.withLock { $0 = identifier }
        case .metadata(let metadata): await tracker.updateMetadata(to: metadata)
        case .properties(let properties): await tracker.updateProperties(to: properties)
        case .metricEvents(let events): await tracker.updateMetricEvents(to: events)
        case .disable(let properties):
            await tracker.disable(with: properties)
            let identifier = await tracker.sessionIdentifier
            mailbox.sessionIdentifier.withLock { $0 = identifier }
        }
    }

    private func post(_ message: Message) {
        mailbox.post(message)
        wake.yield()
    }

    func enable(for player: Player) { post(.enable(player.properties)) }
    func updateMetadata(to metadata: Metadata) { post(.metadata(metadata)) }
    func updateProperties(to properties: TrackerProperties) { post(.properties(properties)) }
    func updateMetricEvents(to events: [MetricEvent]) { post(.metricEvents(events)) }
    func disable(with properties: TrackerProperties) { post(.disable(properties)) }
    var sessionIdentifier: String? { mailbox.sessionIdentifier.withLock { $0 } }
}

public extension AsyncPlayerItemTracker {
    /// An adapter for this tracker.
    /// - Parameters:
    ///   - configuration: handed to ``init(configuration:)``.
    ///   - behavior: whether the tracker obeys ``Player/isTrackingEnabled`` (optional trackers do).
    ///   - mapper: maps the item's metadata to the tracker's.
    static func adapter<M: AssetMetadata>(configuration: Configuration, behavior: TrackingBehavior = .optional,
                                          mapper: @escaping @Sendable (M) -> Metadata) -> TrackerAdapter<M> {
        TrackerAdapter(AsyncTrackerBridge<Self>.self, configuration: configuration, behavior: behavior, mapper: mapper)
    }
}

public extension AsyncPlayerItemTracker where Configuration == Void, Metadata == Void {
    /// An adapter for a tracker without configuration or metadata.
    /// - Parameter behavior: whether the tracker obeys ``Player/isTrackingEnabled`` (optional trackers do).
    static func adapter<M: AssetMetadata>(behavior: TrackingBehavior = .optional) -> TrackerAdapter<M> {
        TrackerAdapter(AsyncTrackerBridge<Self>.self, configuration: (), behavior: behavior) { _ in () }
    }
}

public extension AsyncPlayerItemTracker where Metadata == Void {
    /// An adapter for a tracker without metadata.
    /// - Parameters:
    ///   - configuration: handed to ``init(configuration:)``.
    ///   - behavior: whether the tracker obeys ``Player/isTrackingEnabled`` (optional trackers do).
    static func adapter<M: AssetMetadata>(configuration: Configuration,
                                          behavior: TrackingBehavior = .optional) -> TrackerAdapter<M> {
        TrackerAdapter(AsyncTrackerBridge<Self>.self, configuration: configuration, behavior: behavior) { _ in () }
    }
}
