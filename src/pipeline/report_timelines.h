#pragma once
// The "Where the shots were cut" section of report.html: per sampled source video
// (pipeline/clip_timelines.h) a strip over its time, one box per clip (green kept, red dropped;
// hovering names the clip, its span and the stage and reason), the gaps between boxes what no
// clip covers. Inline SVG, nothing fetched.
#include <string>
#include <vector>

#include "pipeline/clip_timelines.h"

namespace winnow {

std::string timeline_section(const std::vector<SourceTimeline>& timelines);

}  // namespace winnow
