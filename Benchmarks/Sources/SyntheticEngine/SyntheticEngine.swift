// An engine without a network for the Player's benchmarks: it behaves like the headless engine playing a 4-second
// segment stream from a fast server (one request per segment, a loaded event, a first frame, the playhead moving
// with the clock), so that what is measured is the Player's own work.
import PlaytraceCore
import PlaytracePlayer

public actor SyntheticEngine: PlaybackEngine {
    private let clock: any Clock<Duration>
    private let stopwatch: Stopwatch
    private let broadcaster = Broadcaster<EngineEvent>()
    private let duration: MediaTime
    private var snapshotValue = EngineSnapshot()
    private var playStartedAt: Duration?
    private var playheadAtStart = MediaTime.zero
    private var segmentTask: Task<Void, Never>?
    private var progressTask: Task<Void, Never>?
    private var reportsProgress = false
    private var lastReported = MediaTime.zero
    private let variant = VariantInfo(index: 0, bandwidth: 3_000_000, width: 1280, height: 720, codecs: ["avc1.64001f"],
                                      url: "synthetic://variant0.m3u8")

    public init(clock: any Clock<Duration>, duration: MediaTime) {
        self.clock = clock
        stopwatch = Stopwatch(clock: clock)
        self.duration = duration
    }

    public nonisolated func events() -> AsyncStream<EngineEvent> { broadcaster.subscribe() }

    public func snapshot() -> EngineSnapshot {
        var snapshot = snapshotValue
        snapshot.playhead = playhead()
        snapshot.loadedRange = MediaTimeRange(start: snapshot.playhead, end: min(duration, snapshot.playhead + 30))
        return snapshot
    }

    private func playhead() -> MediaTime {
        guard let started = playStartedAt else { return playheadAtStart }
        return min(duration, playheadAtStart + MediaTime(stopwatch.elapsed - started) * snapshotValue.rate)
    }

    public func load(_ source: EngineSource) {
        snapshotValue = EngineSnapshot(status: .paused, seekableRange: MediaTimeRange(start: .zero, end: duration),
                                       duration: duration, streamType: .onDemand, variants: [variant],
                                       currentVariant: variant)
        broadcaster.yield(.statusChanged(.paused))
        broadcaster.yield(.loaded(streamType: .onDemand, duration: duration, variants: [variant]))
    }

    public func play() {
        guard snapshotValue.status == .paused else { return }
        playStartedAt = stopwatch.elapsed
        snapshotValue.status = .playing
        snapshotValue.wantsToPlay = true
        if snapshotValue.startupTime == nil {
            snapshotValue.startupTime = .milliseconds(50)
            broadcaster.yield(.firstFrame(startupTime: .milliseconds(50)))
        }
        broadcaster.yield(.statusChanged(.playing))
        let stopwatch = self.stopwatch
        segmentTask = Task { [weak self] in
            while !Task.isCancelled {
                do { try await stopwatch.sleep(for: .seconds(4)) } catch { return }
                await self?.segmentDownloaded()
            }
        }
        startProgress()
    }

    /// While playing, a tick every 100 ms, as the headless engine's playback loop makes them; with progress reports
    /// on, each tick reports the playhead's movement (progress boundaries are not modelled: a few more reports per
    /// ad). The tick runs either way, as the headless engine's does, so that the reports are all that they add.
    private func startProgress() {
        progressTask?.cancel()
        guard playStartedAt != nil else { return }
        lastReported = playhead()
        let stopwatch = self.stopwatch
        progressTask = Task { [weak self] in
            while !Task.isCancelled {
                do { try await stopwatch.sleep(for: .milliseconds(100)) } catch { return }
                await self?.reportProgress()
            }
        }
    }

    private func reportProgress() {
        let now = playhead()
        guard reportsProgress, now > lastReported else {
            lastReported = now
            return
        }
        broadcaster.yield(.progressed(PlaybackProgress(from: lastReported, to: now, rate: snapshotValue.rate)))
        lastReported = now
    }

    private func segmentDownloaded() {
        snapshotValue.requestCount += 1
        snapshotValue.bytesReceived += 1_500_000
        broadcaster.yield(.request(RequestRecord(kind: .segment, url: "synthetic://segment.ts", status: 200,
                                                 bytes: 1_500_000, timeToFirstByte: .milliseconds(20),
                                                 duration: .milliseconds(400), attempt: 1, variantIndex: 0)))
        if playhead() >= duration {
            snapshotValue.status = .ended
            segmentTask?.cancel()
            progressTask?.cancel()
            broadcaster.yield(.ended)
        }
    }

    public func pause() {
        playheadAtStart = playhead()
        playStartedAt = nil
        snapshotValue.status = .paused
        segmentTask?.cancel()
        progressTask?.cancel()
        broadcaster.yield(.statusChanged(.paused))
    }

    public func seek(to position: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) {
        broadcaster.yield(.seekBegan(target: position))
        playheadAtStart = position
        if playStartedAt != nil { playStartedAt = stopwatch.elapsed }
        broadcaster.yield(.seekEnded(at: position, completed: true))
    }

    public func setRate(_ rate: Double) {
        snapshotValue.rate = rate
        broadcaster.yield(.rateChanged(rate))
    }

    public func setVariantLimits(_ limits: VariantLimits) {}
    public func setSkippedRanges(_ ranges: MediaTimeRangeSet) {}
    public func setVolume(_ volume: Double, isMuted: Bool) {
        snapshotValue.volume = volume
        snapshotValue.isMuted = isMuted
    }
    public func selectMediaOption(_ id: MediaOption.ID?, for kind: MediaOption.Kind) {}
    public func setReportsProgress(_ enabled: Bool) {
        guard enabled != reportsProgress else { return }
        reportsProgress = enabled
        lastReported = playhead()
    }
    public func setProgressBoundaries(_ boundaries: [PlaybackBoundary]) {}
    public func skipInterstitial() {}

    public func stop() {
        segmentTask?.cancel()
        progressTask?.cancel()
        snapshotValue = EngineSnapshot()
        broadcaster.yield(.statusChanged(.idle))
    }
}
