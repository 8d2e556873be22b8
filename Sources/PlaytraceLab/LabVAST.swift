import Foundation

/// The lab's VAST ad server: the ads of the stream with interstitials (``LabInterstitials``) as VAST 4.2, every
/// beacon pointing at the beacon sink (`/beacons/vast/<break>/<ad>/<event>`).
///
/// Paths:
/// - `/vast/pods/<id>.xml`: the inline ads of interstitial `<id>` as a pod (`sequence` 1, 2…), each with an HLS
///   media file (the lab's ad streams), its `<Duration>`, two impressions (one `about:blank`), every linear tracking
///   event (`creativeView` with `[PODSEQUENCE]`, `[ADCOUNT]`, `[UNIVERSALADID]` and `[BREAKPOSITION]` in its query), two `progress` offsets (`00:00:02.500` and `10%`), `<Error>` with `[ERRORCODE]`, an `<AdVerifications>`
///   whose `verificationNotExecuted` carries `[REASON]`, a companion and a non-linear ad; `mid-3`'s answer has no
///   ad (its root `<Error>` only), `mid-4`'s first ad has a media file that does not exist;
/// - `/vast/chain/<n>/<id>.xml`: a wrapper around `/vast/chain/<n-1>/<id>.xml` (around `/vast/pods/<id>.xml` when
///   `n` is 1), with its own impression, error and `start`/`complete` tracking (`?ad=[ADCOUNT]`), and
///   `allowMultipleAds="true"`: `n` = 6 is a chain too deep;
/// - `/vast/loop/<a|b>/<id>.xml`: two wrappers around each other (a → b → a), a loop a resolver must end.
struct LabVAST {
    let configuration: LabConfiguration
    /// The lab's own address, for absolute beacon and media URLs.
    let base: String

    /// The wrapper chain of `levels` wrappers above interstitial `id`'s pod (1 to 16), `nil` for an unknown one.
    func chain(_ id: String, levels: Int) -> String? {
        guard (1...16).contains(levels), isInterstitial(id) else { return nil }
        return wrapper(id, level: levels)
    }

    /// One side (`a` or `b`) of the wrapper loop around interstitial `id`, `nil` for an unknown one.
    func loop(_ id: String, side: String) -> String? {
        guard ["a", "b"].contains(side), isInterstitial(id) else { return nil }
        let other = side == "a" ? "b" : "a"
        return wrapper(id, name: "loop-\(side)", next: "\(base)/vast/loop/\(other)/\(id).xml")
    }

    private func isInterstitial(_ id: String) -> Bool {
        LabInterstitials(configuration: configuration).entries.contains { $0.id == id }
    }

    private func sink(_ pod: String, _ ad: String, _ event: String) -> String { "\(base)/beacons/vast/\(pod)/\(ad)/\(event)" }

    private func cdata(_ text: String) -> String { "<![CDATA[\(text)]]>" }

    /// The inline pod of an interstitial.
    func pod(_ id: String) -> String? {
        guard let entry = LabInterstitials(configuration: configuration).entries.first(where: { $0.id == id }) else { return nil }
        guard id != "mid-3" else {
            return #"<?xml version="1.0" encoding="UTF-8"?><VAST version="4.2"><Error>"#
                + cdata(sink(id, "-", "error") + "?code=[ERRORCODE]") + "</Error></VAST>"
        }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<VAST version="4.2">"# + "\n"
        for (index, asset) in entry.assets.enumerated() {
            xml += inlineAd(pod: id, ad: "ad-\(index + 1)", sequence: index + 1, asset: asset.number, duration: asset.duration)
        }
        return xml + "</VAST>\n"
    }

    private func clock(_ seconds: Double) -> String {
        let whole = Int(seconds)
        let milliseconds = Int(((seconds - Double(whole)) * 1000).rounded())
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = milliseconds == 0 ? "" : "." + String(1000 + milliseconds).dropFirst()
        return "\(two(whole / 3600)):\(two(whole / 60 % 60)):\(two(whole % 60))\(fraction)"
    }

    private func inlineAd(pod: String, ad: String, sequence: Int, asset: Int, duration: Double) -> String {
        let events = ["creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "pause", "resume",
                      "mute", "unmute", "skip"]
        var tracking = events.map { event in
            // creativeView carries the ad's own macros, so that tests see them filled.
            let query = event == "creativeView" ? "?seq=[PODSEQUENCE]&n=[ADCOUNT]&id=[UNIVERSALADID]&pos=[BREAKPOSITION]" : ""
            return #"<Tracking event="\#(event)">"# + cdata(sink(pod, ad, event) + query) + "</Tracking>"
        }
        tracking.append(#"<Tracking event="progress" offset="00:00:02.500">"# + cdata(sink(pod, ad, "progress-2.5s")) + "</Tracking>")
        tracking.append(#"<Tracking event="progress" offset="10%">"# + cdata(sink(pod, ad, "progress-10pc")) + "</Tracking>")
        return """
        <Ad id="\(ad)" sequence="\(sequence)" adType="video">
        <InLine>
        <AdSystem version="1">Playtrace lab</AdSystem>
        <AdServingId>lab-\(pod)-\(ad)</AdServingId>
        <AdTitle>Lab ad \(pod) \(ad)</AdTitle>
        <Impression id="lab">\(cdata(sink(pod, ad, "impression")))</Impression>
        <Impression id="placeholder">about:blank</Impression>
        <Error>\(cdata(sink(pod, ad, "error") + "?code=[ERRORCODE]"))</Error>
        <Category authority="https://www.iabtechlab.com/categoryauthority">IAB1</Category>
        <AdVerifications>
        <Verification vendor="lab.playtrace-omid">
        <JavaScriptResource apiFramework="omid" browserOptional="true">\(cdata(base + "/verification/omid.js"))</JavaScriptResource>
        <TrackingEvents><Tracking event="verificationNotExecuted">\(cdata(sink(pod, ad, "verificationNotExecuted") + "?reason=[REASON]"))</Tracking></TrackingEvents>
        <VerificationParameters>\(cdata("{\"lab\":true}"))</VerificationParameters>
        </Verification>
        </AdVerifications>
        <Creatives>
        <Creative id="creative-\(pod)-\(ad)" adId="\(ad)" sequence="1">
        <UniversalAdId idRegistry="lab.playtrace">\(pod)-\(ad)</UniversalAdId>
        <Linear skipoffset="00:00:02">
        <Duration>\(clock(duration))</Duration>
        <TrackingEvents>\(tracking.joined())</TrackingEvents>
        <VideoClicks><ClickThrough>\(cdata(base + "/landing/\(pod)/\(ad)"))</ClickThrough><ClickTracking>\(cdata(sink(pod, ad, "click")))</ClickTracking></VideoClicks>
        <MediaFiles>
        <MediaFile delivery="progressive" type="video/mp4" width="1280" height="720" bitrate="1200">\(cdata(base + "/ads/\(asset)/ad.mp4"))</MediaFile>
        <MediaFile delivery="streaming" type="application/x-mpegURL" width="1280" height="720">\(cdata(base + "/ads/\(asset)/index.m3u8"))</MediaFile>
        </MediaFiles>
        </Linear>
        </Creative>
        <Creative id="companion-\(pod)-\(ad)">
        <CompanionAds><Companion id="banner" width="300" height="250"><StaticResource creativeType="image/png">\(cdata(base + "/banner.png"))</StaticResource><TrackingEvents><Tracking event="creativeView">\(cdata(sink(pod, ad, "companion-view")))</Tracking></TrackingEvents></Companion></CompanionAds>
        </Creative>
        <Creative id="overlay-\(pod)-\(ad)">
        <NonLinearAds><NonLinear id="overlay" width="480" height="60" minSuggestedDuration="00:00:05"><StaticResource creativeType="image/png">\(cdata(base + "/overlay.png"))</StaticResource></NonLinear></NonLinearAds>
        </Creative>
        </Creatives>
        </InLine>
        </Ad>

        """
    }

    /// A wrapper `level` steps above the inline pod.
    private func wrapper(_ id: String, level: Int) -> String {
        let next = level > 1 ? "\(base)/vast/chain/\(level - 1)/\(id).xml" : "\(base)/vast/pods/\(id).xml"
        return wrapper(id, name: "wrapper-\(level)", next: next)
    }

    /// A wrapper named `name` around the VAST at `next`, with its own impression, error and tracking.
    private func wrapper(_ id: String, name: String, next: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <VAST version="4.2">
        <Ad id="\(name)">
        <Wrapper followAdditionalWrappers="true" allowMultipleAds="true" fallbackOnNoAd="false">
        <AdSystem>Playtrace lab \(name)</AdSystem>
        <VASTAdTagURI>\(cdata(next))</VASTAdTagURI>
        <Impression>\(cdata(sink(id, name, "impression") + "?ad=[ADCOUNT]"))</Impression>
        <Error>\(cdata(sink(id, name, "error") + "?code=[ERRORCODE]"))</Error>
        <Creatives><Creative><Linear><TrackingEvents>
        <Tracking event="start">\(cdata(sink(id, name, "start") + "?ad=[ADCOUNT]"))</Tracking>
        <Tracking event="complete">\(cdata(sink(id, name, "complete") + "?ad=[ADCOUNT]"))</Tracking>
        </TrackingEvents></Linear></Creative></Creatives>
        </Wrapper>
        </Ad>
        </VAST>

        """
    }
}
