public import Foundation
public import PlaytraceNetwork

/// Resolves a VAST ad request into the inline ads to play, following wrappers (IAB VAST 4.x).
///
/// - The first response may give a pod (ads with `sequence`, played in its order) or stand-alone ads (the first
///   that resolves plays: the others are the fallbacks).
/// - A wrapper is followed to at most ``maximumWrapperDepth`` levels (five, as the specification asks players to
///   accept); deeper, error 302 goes to every wrapper of the chain. A wrapper request that fails is error 301 (or
///   100–102 when its answer is not a usable VAST document), and an empty answer 303, to the whole chain and the
///   empty answer's own `<Error>`s.
/// - A wrapper's `followAdditionalWrappers="false"` makes wrappers in its answer ignored; `allowMultipleAds`
///   (false by default) whether its answer may be a pod (otherwise only one ad is taken); `fallbackOnNoAd="true"`
///   whether a stand-alone ad of the wrapper's own response replaces it when it leads to no ad.
///
/// ```swift
/// let resolution = await VASTResolver(transport: transport).resolve(URL(string: "https://ads.example/vast")!)
/// for ad in resolution.ads { print(ad.hlsMediaFile?.url ?? "no HLS media file") }
/// ```
public struct VASTResolver: Sendable {
    public var transport: any HTTPTransport
    /// The most wrappers followed before an inline ad.
    public var maximumWrapperDepth = 5
    /// The most requests one resolution makes (a pod of wrappers can fan out).
    public var maximumRequests = 32
    /// Each request's timeout.
    public var timeout: Duration = .seconds(8)
    public var parser = VASTParser()

    public init(transport: any HTTPTransport) { self.transport = transport }

    /// Fetches a VAST document and resolves it. A response that is not one gives no ad and an error report (to no
    /// URL: there is no `<Error>` to send it to).
    public func resolve(_ url: URL) async -> VASTResolution {
        var resolution = VASTResolution()
        switch await fetch(url, depth: 0, into: &resolution) {
        case .success(let document):
            var state = State(requests: 1)
            resolution.ads = await ads(in: document, base: url, chain: [], chainURLs: [url.absoluteString], depth: 0,
                                       rules: Rules(allowsMultipleAds: true, followsWrappers: true), state: &state,
                                       resolution: &resolution)
        case .failure(let error):
            resolution.errors.append(VASTErrorReport(code: error.code, urls: [], message: error.message))
        }
        return resolution
    }

    /// Resolves a document already at hand (its wrappers are fetched).
    public func resolve(_ document: VASTDocument, base: URL) async -> VASTResolution {
        var resolution = VASTResolution()
        var state = State(requests: 0)
        resolution.ads = await ads(in: document, base: base, chain: [], chainURLs: [base.absoluteString], depth: 0,
                                   rules: Rules(allowsMultipleAds: true, followsWrappers: true), state: &state,
                                   resolution: &resolution)
        return resolution
    }

    /// What the wrapper above a response allows of it.
    private struct Rules {
        var allowsMultipleAds: Bool
        var followsWrappers: Bool
    }

    private struct State {
        var requests: Int
    }

    // swiftlint:disable:next function_parameter_count
    private func ads(in document: VASTDocument, base: URL, chain: [VASTAd], chainURLs: [String], depth: Int,
                     rules: Rules, state: inout State, resolution: inout VASTResolution) async -> [ResolvedVASTAd] {
        let chainErrors = chain.reversed().flatMap(\.errorURLs)
        if document.ads.isEmpty {
            resolution.errors.append(VASTErrorReport(code: .noAd, urls: document.errorURLs + chainErrors,
                                                     message: "no ad in \(chainURLs.last ?? "the response")"))
            return []
        }
        let pod = document.pod
        let standAlone = document.standAloneAds
        var fallbacks = standAlone[...]
        var played: [ResolvedVASTAd] = []
        if rules.allowsMultipleAds, !pod.isEmpty {
            // A pod: each ad in turn; one that leads nowhere is passed over, or replaced by a stand-alone ad when its
            // wrapper says fallbackOnNoAd.
            for ad in pod {
                var found = await resolveAd(ad, base: base, chain: chain, chainURLs: chainURLs, depth: depth, rules: rules,
                                            state: &state, resolution: &resolution)
                if found.isEmpty, ad.wrapper?.fallbackOnNoAd == true {
                    while found.isEmpty, let fallback = fallbacks.popFirst() {
                        found = await resolveAd(fallback, base: base, chain: chain, chainURLs: chainURLs, depth: depth,
                                                rules: rules, state: &state, resolution: &resolution)
                    }
                }
                played += found
            }
            return played
        }
        // Stand-alone ads (or, when only one ad is allowed, the pod's first): the first that resolves.
        let candidates = standAlone.isEmpty ? Array(pod.prefix(1)) : standAlone
        for ad in candidates {
            let found = await resolveAd(ad, base: base, chain: chain, chainURLs: chainURLs, depth: depth, rules: rules,
                                        state: &state, resolution: &resolution)
            if !found.isEmpty { return rules.allowsMultipleAds ? found : Array(found.prefix(1)) }
        }
        return []
    }

    // swiftlint:disable:next function_parameter_count
    private func resolveAd(_ ad: VASTAd, base: URL, chain: [VASTAd], chainURLs: [String], depth: Int, rules: Rules,
                           state: inout State, resolution: inout VASTResolution) async -> [ResolvedVASTAd] {
        guard let wrapper = ad.wrapper else {
            return [ResolvedVASTAd(ad: ad, wrappers: chain, chainURLs: chainURLs)]
        }
        let chainErrors = (chain + [ad]).reversed().flatMap(\.errorURLs)
        guard rules.followsWrappers else {
            resolution.errors.append(VASTErrorReport(code: .wrapper, urls: [],
                                                     message: "a wrapper in \(chainURLs.last ?? "?") ignored: followAdditionalWrappers is false above it"))
            return []
        }
        guard depth < maximumWrapperDepth else {
            resolution.errors.append(VASTErrorReport(code: .wrapperLimit, urls: chainErrors,
                                                     message: "more than \(maximumWrapperDepth) wrappers"))
            return []
        }
        guard state.requests < maximumRequests else {
            resolution.errors.append(VASTErrorReport(code: .wrapper, urls: chainErrors,
                                                     message: "more than \(maximumRequests) VAST requests"))
            return []
        }
        guard let url = URL(string: wrapper.adTagURI, relativeTo: base)?.absoluteURL, url.scheme?.hasPrefix("http") == true else {
            resolution.errors.append(VASTErrorReport(code: .wrapperTimeout, urls: chainErrors,
                                                     message: "the wrapper's VASTAdTagURI is not an http(s) URL: \(wrapper.adTagURI)"))
            return []
        }
        // A wrapper that leads back into its own chain (A → B → A) would be followed to the depth limit: it ends the
        // chain at once, each error URL called once.
        guard !chainURLs.contains(url.absoluteString) else {
            resolution.errors.append(VASTErrorReport(code: .wrapperLimit, urls: chainErrors,
                                                     message: "a wrapper loop: \(url.absoluteString) is already in the chain"))
            return []
        }
        state.requests += 1
        switch await fetch(url, depth: depth + 1, into: &resolution) {
        case .success(let document):
            let rules = Rules(allowsMultipleAds: wrapper.allowMultipleAds, followsWrappers: wrapper.followAdditionalWrappers)
            return await ads(in: document, base: url, chain: chain + [ad], chainURLs: chainURLs + [url.absoluteString],
                             depth: depth + 1, rules: rules, state: &state, resolution: &resolution)
        case .failure(let error):
            resolution.errors.append(VASTErrorReport(code: error.code, urls: chainErrors, message: error.message))
            return []
        }
    }

    private func fetch(_ url: URL, depth: Int, into resolution: inout VASTResolution) async -> Result<VASTDocument, VASTParseError> {
        let result: Result<VASTDocument, VASTParseError>
        do {
            let response = try await transport.send(HTTPRequest(url: url, timeout: timeout,
                                                                maximumBodySize: parser.limits.maximumBytes))
            if response.isSuccess {
                result = Result { () throws(VASTParseError) in try parser.parse(Data(response.body)) }
            } else {
                result = .failure(VASTParseError(.wrapperTimeout, "HTTP \(response.status) from \(url.absoluteString)"))
            }
        } catch {
            result = .failure(VASTParseError(.wrapperTimeout, "\(url.absoluteString): \(error)"))
        }
        switch result {
        case .failure(let error):
            resolution.fetches.append(.init(url: url.absoluteString, depth: depth, failure: error.description))
        case .success(let document):
            resolution.fetches.append(.init(url: url.absoluteString, depth: depth, failure: nil, problems: document.problems))
        }
        return result
    }
}
