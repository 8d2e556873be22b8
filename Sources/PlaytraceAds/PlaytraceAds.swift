// PlaytraceAds: client-side ad tracking for SSAI streams and HLS interstitials (session setup, ad metadata
// providers, beacon scheduling, macros, reporting states). Laid out now so that the package has DESIGN.md's
// shape; its content arrives with the ad-tracking issue.
