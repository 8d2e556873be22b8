#!/usr/bin/env python3
"""Writes the MPDs scripts/bench parses (Playtrace's MPDParser against Python's mpegdash package).

    generate-mpds.py multiperiod FILE PERIODS   a live SSAI MPD: content and ad periods in turn, each with a video
                                                set of four representations, an audio and a text set, a SCTE-35
                                                EventStream on each content period, SegmentTimeline addressing
    generate-mpds.py timeline FILE ENTRIES      a live MPD of one period whose video, audio and text timelines hold
                                                ENTRIES S elements each (irregular durations: no r to fold them)
"""
import sys

HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:scte35="http://www.scte.org/schemas/35/2016"
     type="dynamic" profiles="urn:mpeg:dash:profile:isoff-live:2011" availabilityStartTime="2026-01-01T00:00:00Z"
     publishTime="2026-01-01T06:00:00Z" minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT6H"
     suggestedPresentationDelay="PT6S" minBufferTime="PT4S" maxSegmentDuration="PT2S">
  <Location>https://origin.example/live/session/manifest.mpd</Location>
  <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="https://time.example/?iso"/>
  <BaseURL>https://cdn.example/live/</BaseURL>
"""
SPLICE = "/DAlAAAAAAAA///wFAUAAAABf+/+AAr8gP4ACvyAAAAAAAAAOoQHlA=="


def sets(timeline, pto):
    out = []
    out.append(f'    <AdaptationSet id="1" contentType="video" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1">\n'
               f'      <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>\n'
               f'      <SegmentTemplate timescale="90000" presentationTimeOffset="{pto}" '
               f'media="video/$RepresentationID$/$Time$.m4s" initialization="video/$RepresentationID$/init.mp4">\n'
               f'        <SegmentTimeline>\n{timeline}        </SegmentTimeline>\n      </SegmentTemplate>\n')
    for rid, bandwidth, width, height in (("1080p", 6000000, 1920, 1080), ("720p", 3000000, 1280, 720),
                                          ("480p", 1200000, 854, 480), ("360p", 700000, 640, 360)):
        out.append(f'      <Representation id="{rid}" bandwidth="{bandwidth}" width="{width}" height="{height}" '
                   f'codecs="avc1.64001f" frameRate="30000/1001" sar="1:1"/>\n')
    out.append("    </AdaptationSet>\n")
    out.append(f'    <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" lang="en" segmentAlignment="true">\n'
               f'      <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>\n'
               f'      <SegmentTemplate timescale="90000" presentationTimeOffset="{pto}" '
               f'media="audio/$RepresentationID$/$Time$.m4s" initialization="audio/$RepresentationID$/init.mp4">\n'
               f'        <SegmentTimeline>\n{timeline}        </SegmentTimeline>\n      </SegmentTemplate>\n'
               f'      <Representation id="aac" bandwidth="128000" codecs="mp4a.40.2" audioSamplingRate="48000"/>\n'
               f'    </AdaptationSet>\n')
    out.append(f'    <AdaptationSet id="3" contentType="text" mimeType="application/mp4" lang="en" codecs="wvtt">\n'
               f'      <Role schemeIdUri="urn:mpeg:dash:role:2011" value="subtitle"/>\n'
               f'      <SegmentTemplate timescale="90000" presentationTimeOffset="{pto}" media="text/$Time$.m4s" '
               f'initialization="text/init.mp4">\n'
               f'        <SegmentTimeline>\n{timeline}        </SegmentTimeline>\n      </SegmentTemplate>\n'
               f'      <Representation id="subs" bandwidth="2000"/>\n    </AdaptationSet>\n')
    return "".join(out)


def multiperiod(periods):
    out = [HEAD]
    start = 0.0
    for index in range(periods):
        ad = index % 2 == 1
        seconds = 30 if ad else 120
        pto = int(start * 90000)
        timeline = f'          <S t="{pto}" d="180000" r="{seconds // 2 - 1}"/>\n'
        pid = f"{index // 2}_1" if ad else str(index // 2)
        out.append(f'  <Period id="{pid}" start="PT{start:.3f}S">\n')
        if ad:
            out.append(f'    <BaseURL>https://ads.example/creative/{index}/</BaseURL>\n')
        else:
            out.append(f'    <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="90000">\n'
                       f'      <Event presentationTime="{pto + 108 * 90000}" duration="{30 * 90000}" id="{index}">\n'
                       f'        <scte35:Signal><scte35:Binary>{SPLICE}</scte35:Binary></scte35:Signal>\n'
                       f'      </Event>\n    </EventStream>\n')
        out.append(sets(timeline, pto))
        out.append("  </Period>\n")
        start += seconds
    out.append("</MPD>\n")
    return "".join(out)


def timeline(entries):
    # Encoder drift: durations alternate, so that each S stands alone (as a live encoder's do).
    rows, time = [], 0
    for index in range(entries):
        duration = 180000 + (index % 3) * 30 - 30
        rows.append(f'          <S t="{time}" d="{duration}"/>\n')
        time += duration
    return HEAD + '  <Period id="live" start="PT0S">\n' + sets("".join(rows), 0) + "  </Period>\n</MPD>\n"


if __name__ == "__main__":
    kind, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(multiperiod(count) if kind == "multiperiod" else timeline(count))
