// PlaytraceTelemetry: the instrument (trackers → hub → metricalc → backends), actions, attributes, events and
// metrics, after OpenAVT's model with its flaws fixed. Laid out now so that the package has DESIGN.md's shape;
// its content arrives with the telemetry issue.
