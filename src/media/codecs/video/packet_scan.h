#pragma once
// Where a source's H.264 packets fall and which are keyframes, read without decoding (a demux
// pass costs a small share of a decode): what decides whether a clip can be copied packet for
// packet instead of re-encoded (transcode_entry.cpp, EncodeSettings::copy_when_possible).
#include <cstdint>
#include <string>
#include <vector>

#include "media/codecs/video/av_support.h"
#include "media/video_codecs.h"

namespace winnow::av {

struct PacketTime {
  double time_s = 0;  // presentation time from the stream's start
  bool key = false;
  int64_t order = 0;  // position in decode order
};

// The video packets of `path` from the keyframe at or before `from_s` up to the first keyframe
// at or after `to_s` (or the end), sorted by presentation time. False with `error` set when the
// file cannot be read.
bool scan_packets(const char* path, double from_s, double to_s, std::vector<PacketTime>& packets,
                  std::string& error);

// Whether the clip `span` can be cut from the stream without decoding: its first frame (the
// first at or after begin_s - slack) is a keyframe, and the frame after its last (the first at
// or after end_s - slack) is a keyframe too or there is none (the clip runs to the end), and the
// packets shown in the span are exactly those decoded from the first keyframe up to the next
// (no B-frame of the span decoded after the next keyframe, none of another span between): so
// the copied packets hold every frame they refer to and no frame outside the span.
bool can_copy(const std::vector<PacketTime>& packets, const ClipSpan& span, double slack);

}  // namespace winnow::av
