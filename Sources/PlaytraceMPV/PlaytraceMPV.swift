// PlaytraceMPV: the libmpv engine (real decoding), `MPVEngine`. It is built only with the package trait `MPV`
// (`swift build --traits MPV`), which links libmpv through the CMPV system-library target; without the trait the
// module is empty, so that nothing depends on libmpv being installed.
