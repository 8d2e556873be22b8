// PlaytraceMPV: the libmpv engine (real decoding). It is built only with the package trait `MPV`
// (`swift build --traits MPV`), which links libmpv through the CMPV system-library target.
//
// This module is laid out now so that the package's shape is the one DESIGN.md draws; the engine itself
// arrives with the libmpv issue. Without the trait the module is empty on purpose: nothing here may depend on
// libmpv being installed.
