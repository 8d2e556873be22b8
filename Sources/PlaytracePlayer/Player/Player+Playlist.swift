import PlaytraceCore
extension Player {
    /// The playlist. Setting it keeps the current item when it is still in the list (otherwise the first new item
    /// becomes current); duplicates are dropped.
    public var items: [PlayerItem] {
        get { queue.items }
        set { setItems(newValue) }
    }

    /// The items before the current one.
    public var previousItems: [PlayerItem] { queue.previousItems }

    /// The items after the current one.
    public var nextItems: [PlayerItem] { queue.nextItems }

    /// The item being played. Setting it follows Pillarbox's rules: an item of the playlist becomes current; the
    /// current item itself skips to its default position; an item not in the playlist replaces the current one
    /// (items `[1, 2]` playing 1, set 3: `[3, 2]`; appended to a playlist without a current item); `nil` stops
    /// playback, the items kept.
    public var currentItem: PlayerItem? {
        get { queue.currentItem }
        set {
            guard let newValue else {
                editPlaylist { $0.setCurrent(nil) }
                return
            }
            if newValue === queue.currentItem {
                skipToDefault()
            } else if queue.contains(newValue) {
                startSession(for: newValue)
            } else if let current = queue.currentItem {
                editPlaylist { queue in
                    queue.insert(newValue, before: current) && queue.remove(current) && queue.setCurrent(newValue)
                }
            } else {
                editPlaylist { queue in queue.append(newValue) && queue.setCurrent(newValue) }
            }
        }
    }

    /// Inserts an item before another one (`nil`: at the front). An item already in the list is refused.
    @discardableResult
    public func insert(_ item: PlayerItem, before other: PlayerItem?) -> Bool {
        editPlaylist { $0.insert(item, before: other) }
    }

    /// Inserts an item after another one (`nil`: at the end). An item already in the list is refused.
    @discardableResult
    public func insert(_ item: PlayerItem, after other: PlayerItem?) -> Bool {
        editPlaylist { $0.insert(item, after: other) }
    }

    /// Inserts an item at the front.
    @discardableResult
    public func prepend(_ item: PlayerItem) -> Bool { insert(item, before: nil) }

    /// Inserts an item at the end.
    @discardableResult
    public func append(_ item: PlayerItem) -> Bool { insert(item, after: nil) }

    /// Moves an item before another one (`nil`: to the front).
    @discardableResult
    public func move(_ item: PlayerItem, before other: PlayerItem?) -> Bool {
        editPlaylist { $0.move(item, before: other) }
    }

    /// Moves an item after another one (`nil`: to the end).
    @discardableResult
    public func move(_ item: PlayerItem, after other: PlayerItem?) -> Bool {
        editPlaylist { $0.move(item, after: other) }
    }

    /// Removes an item; removing the current one moves on to the next (or the previous, when it was the last).
    @discardableResult
    public func remove(_ item: PlayerItem) -> Bool {
        resumePositions[item.id] = nil
        return editPlaylist { $0.remove(item) }
    }

    /// Empties the playlist and stops playback; the error goes with the items (Pillarbox's
    /// `testRemoveAllItemsClearsError`).
    public func removeAllItems() {
        resumePositions.removeAll()
        editPlaylist { queue in
            queue.removeAll()
            return true
        }
        error = nil
    }

    /// Whether there is an item after the current one (given the repeat mode).
    public func canAdvanceToNextItem() -> Bool {
        queue.nextItem(repeatMode: repeatMode) != nil
    }

    /// Goes to the item after the current one (the first one after the last with ``RepeatMode/all``).
    public func advanceToNextItem() {
        guard let next = queue.nextItem(repeatMode: repeatMode) else { return }
        startSession(for: next)
    }

    /// Whether ``returnToPreviousItem()`` does something: with ``NavigationMode/smart(interval:)``, always for
    /// on-demand content (it restarts the item); otherwise, when there is an item before the current one (given the
    /// repeat mode).
    public func canReturnToPreviousItem() -> Bool {
        if case .smart = configuration.navigationMode, session != nil, streamType == .onDemand { return true }
        return queue.previousItem(repeatMode: repeatMode) != nil
    }

    /// "Previous", by the ``Configuration/navigationMode``: with ``NavigationMode/smart(interval:)`` (the default,
    /// 3 s), restarts the current on-demand item when the playhead is that far past its start or when there is no
    /// previous item, and goes to the previous item otherwise (the last one before the first with
    /// ``RepeatMode/all``); with ``NavigationMode/immediate``, always goes to the previous item. Does nothing when
    /// ``canReturnToPreviousItem()`` is false.
    public func returnToPreviousItem() {
        guard canReturnToPreviousItem() else { return }
        if restartsOnReturn() {
            seek(.at(startPosition), smooth: false)
        } else if let previous = queue.previousItem(repeatMode: repeatMode) {
            startSession(for: previous)
        }
    }

    private func restartsOnReturn() -> Bool {
        guard case .smart(let interval) = configuration.navigationMode, session != nil else { return false }
        let hasPrevious = queue.previousItem(repeatMode: repeatMode) != nil
        return (streamType == .onDemand && time - seekableTimeRange.start >= MediaTime(interval)) || !hasPrevious
    }

    func setItems(_ newItems: [PlayerItem]) {
        editPlaylist { queue in
            queue.setItems(newItems)
            return true
        }
    }

    /// Applies a playlist edit, then follows its consequences: a new current item, a new next item to preload.
    @discardableResult
    private func editPlaylist(_ edit: (inout ItemQueue<PlayerItem>) -> Bool) -> Bool {
        let previousCurrent = queue.currentItem
        guard edit(&queue) else { return false }
        let current = queue.currentItem
        if current !== previousCurrent || (current != nil && session?.item !== current) {
            if let current {
                startSession(for: current)
            } else {
                endCurrentSession()
                hasPlayedPlaylist = false
                preloadNextItem()
                publish()
                publishMetricEvents()
            }
        } else {
            preloadNextItem()
        }
        return true
    }
}
