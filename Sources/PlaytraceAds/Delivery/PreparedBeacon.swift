import PlaytraceNetwork

/// A fired event made ready to send: its record, each URL with its macros filled (those not to request given their
/// outcome at once), the outbox messages of the URLs to request, and what the log says of it.
struct PreparedBeacon {
    var record: BeaconRecord
    /// One message per URL to request, keyed `<delivery key>/<URL index>`.
    var messages: [BeaconStoreQueue.Beacon] = []
    /// What the log says: URLs refused by policy, URLs past the limit per event.
    var notes: [(message: String, isError: Bool)] = []

    /// Fills the firing's URLs with `values` and sorts them by ``BeaconURLPolicy``: only http(s) URLs are ever
    /// requested; `about:blank` is nothing to send; anything else is refused (said, and not a failure of the event).
    /// `remembersKey`: whether the outbox remembers each URL's key after delivery (``OutboxMessage/remembersKey``).
    init(_ firing: BeaconFiring, deliveryKey: String, values: BeaconMacroValues, sentAt: Duration, remembersKey: Bool = true) {
        record = BeaconRecord(firing: firing, sentAt: sentAt, urls: [])
        for (index, template) in firing.urls.enumerated() {
            let url = BeaconMacros.fill(template, with: values)
            var state = BeaconRecord.URLState(url: url)
            switch BeaconURLPolicy.verdict(for: url) {
            case .request:
                let message = OutboxMessage(key: "\(deliveryKey)/\(index)", destination: BeaconCourier.destination,
                                            payload: [], metadata: ["url": url], remembersKey: remembersKey)
                messages.append(BeaconStoreQueue.Beacon(deliveryKey: deliveryKey, index: index, sentAt: sentAt, message: message))
            case .skip:
                state.outcome = .skipped
            case .refuse(let reason):
                state.outcome = .refused(reason)
                notes.append(("beacon \(deliveryKey) URL \(index + 1) not requested: \(reason)", false))
            }
            record.urls.append(state)
        }
        record.urlsOverLimit = firing.urlsOverLimit
        if firing.urlsOverLimit > 0 {
            notes.append(("beacon \(deliveryKey): \(firing.urlsOverLimit) URL(s) past the limit per event not requested", true))
        }
    }
}
