#include "media/codecs/video/packet_scan.h"

#include <algorithm>
#include <cmath>

namespace winnow::av {

bool scan_packets(const char* path, double from_s, double to_s, std::vector<PacketTime>& packets,
                  std::string& error) {
  packets.clear();
  VideoInput in;
  if (!open_video(path, false, in, error)) return false;
  AVStream* video = in.video();
  if (from_s > 0) {
    auto ts = static_cast<int64_t>(std::floor((from_s + in.start_s) / av_q2d(video->time_base)));
    av_seek_frame(in.format.get(), in.stream, ts, AVSEEK_FLAG_BACKWARD);
  }
  PacketPtr packet(av_packet_alloc());
  // Packets come in decode order: B-frames shown before a keyframe may follow it, so reading
  // stops at the second keyframe past to_s (every frame shown before the first has been read).
  int keys_past_end = 0;
  for (;;) {
    int rc = av_read_frame(in.format.get(), packet.get());
    if (rc == AVERROR_EOF) break;
    if (rc < 0) {
      error = "cannot read on: " + error_text(rc);
      return false;
    }
    if (packet->stream_index == in.stream && packet->pts != AV_NOPTS_VALUE) {
      const double time = in.seconds(packet->pts);
      const bool key = (packet->flags & AV_PKT_FLAG_KEY) != 0;
      if (key && time >= to_s && ++keys_past_end == 2) {
        av_packet_unref(packet.get());
        break;
      }
      packets.push_back({time, key, static_cast<int64_t>(packets.size())});
    }
    av_packet_unref(packet.get());
  }
  std::sort(packets.begin(), packets.end(),
            [](const PacketTime& a, const PacketTime& b) { return a.time_s < b.time_s; });
  return true;
}

bool can_copy(const std::vector<PacketTime>& packets, const ClipSpan& span, double slack) {
  auto at_or_after = [&](double t) {
    return std::lower_bound(packets.begin(), packets.end(), t,
                            [](const PacketTime& p, double v) { return p.time_s < v; });
  };
  auto first = at_or_after(span.begin_s - slack);
  auto after = at_or_after(span.end_s - slack);
  if (first == packets.end() || first == after || !first->key) return false;
  if (after != packets.end() && !after->key) return false;
  const int64_t end_order =
      after == packets.end() ? static_cast<int64_t>(packets.size()) : after->order;
  for (auto p = first; p != after; ++p) {
    if (p->order < first->order || p->order >= end_order) return false;
  }
  return after - first == end_order - first->order;
}

}  // namespace winnow::av
