#!/usr/bin/env python3
"""Writes the benchmark's playlists, one kind each:
  live        N segments of 6 s, a program-date-time on each, an ad break every 50 segments (DATERANGE with
              SCTE35-OUT/IN and CUE-OUT/CUE-OUT-CONT/CUE-IN);
  multivariant  N variant streams (CODECS, RESOLUTION, FRAME-RATE, AUDIO and SUBTITLES groups) and their
              renditions, plus I-frame variants: the shape of a large ladder with many languages;
  byterange   N segments addressed by byte ranges in one file per variant, with an EXT-X-MAP and an EXT-X-KEY
              every 100 segments (the fMP4 shape).
Usage: generate-playlists.py KIND PATH N"""
import datetime
import sys


def live(count: int) -> str:
    start = datetime.datetime(2026, 11, 21, 0, 0, 0, tzinfo=datetime.timezone.utc)
    lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:1000000",
             "#EXT-X-INDEPENDENT-SEGMENTS"]
    out_hex = "0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A"
    for index in range(count):
        date = start + datetime.timedelta(seconds=6 * index)
        stamp = date.strftime("%Y-%m-%dT%H:%M:%S.") + f"{date.microsecond // 1000:03d}Z"
        lines.append(f"#EXT-X-PROGRAM-DATE-TIME:{stamp}")
        phase = index % 50
        if phase == 40:
            lines.append(f'#EXT-X-DATERANGE:ID="break-{index}",START-DATE="{stamp}",PLANNED-DURATION=30,SCTE35-OUT={out_hex}')
            lines.append("#EXT-X-CUE-OUT:30")
        elif 40 < phase < 45:
            lines.append(f"#EXT-X-CUE-OUT-CONT:ElapsedTime={6 * (phase - 40)},Duration=30")
        elif phase == 45:
            lines.append(f'#EXT-X-DATERANGE:ID="break-{index - 5}",START-DATE="{stamp}",SCTE35-IN={out_hex}')
            lines.append("#EXT-X-CUE-IN")
        lines.append("#EXTINF:6.000,")
        lines.append(f"https://cdn.example.com/live/channel-1/1080p/segment_{1000000 + index}.ts")
    return "\n".join(lines) + "\n"


def multivariant(count: int) -> str:
    lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
    languages = ["en", "fr", "de", "it", "es", "pt", "nl", "sv", "da", "fi", "pl", "cs", "hu", "ro", "el", "tr"]
    for group in ("aac", "ec3"):
        for index, language in enumerate(languages):
            lines.append(f'#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="{group}",LANGUAGE="{language}",NAME="{language} {group}",'
                         f'AUTOSELECT=YES,DEFAULT={"YES" if index == 0 else "NO"},CHANNELS="{2 if group == "aac" else 6}",'
                         f'URI="audio/{group}/{language}/index.m3u8"')
    for index, language in enumerate(languages):
        lines.append(f'#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="{language}",NAME="{language}",'
                     f'AUTOSELECT=YES,DEFAULT=NO,FORCED=NO,URI="subs/{language}/index.m3u8"')
    ladder = [(416, 234, 145000), (640, 360, 365000), (768, 432, 730000), (960, 540, 2000000),
              (1280, 720, 3000000), (1920, 1080, 6000000), (2560, 1440, 9000000), (3840, 2160, 16000000)]
    for index in range(count):
        width, height, bandwidth = ladder[index % len(ladder)]
        bandwidth += index  # every variant distinct
        audio = "aac" if index % 2 == 0 else "ec3"
        codecs = "avc1.640028,mp4a.40.2" if audio == "aac" else "hvc1.2.4.L150.B0,ec-3"
        lines.append(f'#EXT-X-STREAM-INF:BANDWIDTH={bandwidth},AVERAGE-BANDWIDTH={bandwidth * 8 // 10},'
                     f'CODECS="{codecs}",RESOLUTION={width}x{height},FRAME-RATE=29.970,VIDEO-RANGE=SDR,'
                     f'HDCP-LEVEL=NONE,AUDIO="{audio}",SUBTITLES="subs",CLOSED-CAPTIONS=NONE')
        lines.append(f"video/{height}p/{index}/index.m3u8")
        if index % 4 == 0:
            lines.append(f'#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH={bandwidth // 10},CODECS="avc1.640028",'
                         f'RESOLUTION={width}x{height},URI="video/{height}p/{index}/iframes.m3u8"')
    return "\n".join(lines) + "\n"


def byterange(count: int) -> str:
    lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD",
             "#EXT-X-INDEPENDENT-SEGMENTS", '#EXT-X-MAP:URI="main.mp4",BYTERANGE="1200@0"']
    offset = 1200
    for index in range(count):
        if index % 100 == 0:
            lines.append(f'#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://keys/{index // 100}",'
                         f'KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"')
        length = 480000 + (index * 7919) % 20000
        lines.append("#EXTINF:4.004,")
        lines.append(f"#EXT-X-BYTERANGE:{length}@{offset}")
        lines.append("main.mp4")
        offset += length
    lines.append("#EXT-X-ENDLIST")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    kind, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    text = {"live": live, "multivariant": multivariant, "byterange": byterange}[kind](count)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
