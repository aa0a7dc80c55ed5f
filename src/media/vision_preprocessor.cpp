#include "media/vision_preprocessor.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace winnow {

namespace {

// A size given as an integer or as {"height", "width"} / {"shortest_edge"}.
struct SizeField {
  int64_t square = 0;
  int64_t shortest_edge = 0, height = 0, width = 0;
};

std::string read_size(simdjson::dom::element value, SizeField& size) {
  if (value.is_int64()) {
    size.square = value.get_int64().value();
    return size.square > 0 ? "" : "must be positive";
  }
  simdjson::dom::object object;
  if (value.get_object().get(object)) return "must be an integer or an object";
  for (auto field : object) {
    int64_t v = 0;
    if (field.value.get_int64().get(v) || v <= 0) {
      return fmt::format("'{}' must be a positive integer", field.key);
    }
    if (field.key == "shortest_edge") {
      size.shortest_edge = v;
    } else if (field.key == "height") {
      size.height = v;
    } else if (field.key == "width") {
      size.width = v;
    } else {
      return fmt::format("'{}' is not supported (shortest_edge, or height and width)", field.key);
    }
  }
  if (size.shortest_edge == 0 && (size.height == 0 || size.width == 0)) {
    return "needs shortest_edge, or height and width";
  }
  if (size.shortest_edge != 0 && size.height != 0) return "has both shortest_edge and height";
  return "";
}

// Python's floor division and ceiling of a half, for the centre crop's offsets.
int floor_half(int v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }
int ceil_half(int v) { return (v + 1) / 2; }

}  // namespace

Result<VisionPreprocessor> VisionPreprocessor::load(const std::string& path) {
  simdjson::dom::parser parser;
  simdjson::dom::object config;
  if (auto error = parser.load(path).get_object().get(config)) {
    return Status::errorf("{}: cannot read it as a JSON object: {}", path,
                          simdjson::error_message(error));
  }
  auto fail = [&](std::string_view key, std::string_view why) {
    return Status::errorf("{}: '{}' {}", path, key, why);
  };
  VisionPreprocessing s;
  auto flag = [&](const char* key, bool& out) -> std::string {
    simdjson::dom::element value;
    if (config[key].get(value)) return "";
    if (!value.is_bool()) return "must be true or false";
    out = value.get_bool().value();
    return "";
  };
  for (auto [key, out] : {std::pair<const char*, bool*>{"do_resize", &s.resize},
                          {"do_center_crop", &s.center_crop},
                          {"do_rescale", &s.rescale},
                          {"do_normalize", &s.normalize}}) {
    if (std::string why = flag(key, *out); !why.empty()) return fail(key, why);
  }
  if (s.resize) {
    simdjson::dom::element value;
    if (config["size"].get(value)) return fail("size", "is missing (do_resize is true)");
    SizeField size;
    if (std::string why = read_size(value, size); !why.empty()) return fail("size", why);
    if (size.square != 0) {
      // transformers' reading of an integer: the short side for processors that crop after
      // resizing (CLIP's older configs), a square for the rest (ViT).
      if (s.center_crop) {
        s.shortest_edge = static_cast<int>(size.square);
      } else {
        s.resize_height = s.resize_width = static_cast<int>(size.square);
      }
    } else {
      s.shortest_edge = static_cast<int>(size.shortest_edge);
      s.resize_height = static_cast<int>(size.height);
      s.resize_width = static_cast<int>(size.width);
    }
    int64_t resample = 0;
    if (config["resample"].get_int64().get(resample)) {
      return fail("resample", "is missing or not an integer (Pillow's 2 = bilinear, 3 = bicubic)");
    }
    if (resample == 2) {
      s.filter = ResampleFilter::kBilinear;
    } else if (resample == 3) {
      s.filter = ResampleFilter::kBicubic;
    } else {
      return fail("resample", fmt::format("is {}; winnow has Pillow's 2 (bilinear) and 3 "
                                          "(bicubic)",
                                          resample));
    }
  }
  if (s.center_crop) {
    simdjson::dom::element value;
    if (config["crop_size"].get(value)) return fail("crop_size", "is missing (do_center_crop)");
    SizeField size;
    if (std::string why = read_size(value, size); !why.empty()) return fail("crop_size", why);
    if (size.shortest_edge != 0) return fail("crop_size", "needs height and width");
    s.crop_height = static_cast<int>(size.square ? size.square : size.height);
    s.crop_width = static_cast<int>(size.square ? size.square : size.width);
  }
  if (s.rescale) {
    simdjson::dom::element value;
    if (!config["rescale_factor"].get(value)) {
      if (!value.is_number()) return fail("rescale_factor", "must be a number");
      s.rescale_factor = value.get_double().value();
    }
  }
  if (s.normalize) {
    for (auto [key, out] : {std::pair<const char*, float*>{"image_mean", s.mean},
                            {"image_std", s.std}}) {
      simdjson::dom::array values;
      if (config[key].get_array().get(values) || values.size() != 3) {
        return fail(key, "must be a list of 3 numbers (do_normalize is true)");
      }
      size_t c = 0;
      for (simdjson::dom::element v : values) {
        if (!v.is_number()) return fail(key, "must be a list of 3 numbers");
        out[c++] = static_cast<float>(v.get_double().value());
      }
    }
    for (float v : s.std) {
      if (!(v > 0)) return fail("image_std", "must be positive");
    }
  }
  return VisionPreprocessor(s);
}

void VisionPreprocessor::resized_size(int width, int height, int& out_width,
                                      int& out_height) const {
  out_width = width;
  out_height = height;
  if (!settings_.resize) return;
  if (settings_.shortest_edge > 0) {
    const int shorter = std::min(width, height), longer = std::max(width, height);
    // transformers: int(size * long / short), a float division truncated.
    const int new_long =
        static_cast<int>(static_cast<double>(settings_.shortest_edge) * longer / shorter);
    out_width = width <= height ? settings_.shortest_edge : new_long;
    out_height = width <= height ? new_long : settings_.shortest_edge;
  } else {
    out_width = settings_.resize_width;
    out_height = settings_.resize_height;
  }
}

void VisionPreprocessor::output_size(int width, int height, int& out_width, int& out_height) const {
  resized_size(width, height, out_width, out_height);
  if (settings_.center_crop) {
    out_width = settings_.crop_width;
    out_height = settings_.crop_height;
  }
}

void VisionPreprocessor::to_tensor(const ImagePixels& image, float* out) const {
  // Pillow's resize, on the BGR pixels as they are: channels are resized independently, so
  // the order is swapped when the planes are written, not on the full-size picture.
  const std::vector<uint8_t>* pixels = &image.bgr;
  std::vector<uint8_t> resized;
  int width = image.width, height = image.height;
  if (settings_.resize) {
    int resized_w = 0, resized_h = 0;
    resized_size(width, height, resized_w, resized_h);
    resize_like_pillow(image.bgr.data(), width, height, 3, resized_w, resized_h, settings_.filter,
                       resized);
    pixels = &resized;
    width = resized_w;
    height = resized_h;
  }
  // The centre crop per axis: a window inside the image, or the image centred in zeros.
  int out_w = width, out_h = height;
  int src_x = 0, src_y = 0, dst_x = 0, dst_y = 0;
  if (settings_.center_crop) {
    out_w = settings_.crop_width;
    out_h = settings_.crop_height;
    if (width >= out_w) src_x = floor_half(width - out_w); else dst_x = ceil_half(out_w - width);
    if (height >= out_h) src_y = floor_half(height - out_h); else dst_y = ceil_half(out_h - height);
  }
  const size_t plane = static_cast<size_t>(out_w) * out_h;
  // transformers: the 8-bit value times the factor in float64, stored as float32; then
  // (x - mean) / std in float32.
  float lut[3][256];
  for (int c = 0; c < 3; ++c) {
    for (int v = 0; v < 256; ++v) {
      float x = settings_.rescale ? static_cast<float>(v * settings_.rescale_factor)
                                  : static_cast<float>(v);
      lut[c][v] = settings_.normalize ? (x - settings_.mean[c]) / settings_.std[c] : x;
    }
  }
  for (int c = 0; c < 3; ++c) std::fill(out + c * plane, out + (c + 1) * plane, lut[c][0]);
  const int copy_w = std::min(out_w, width), copy_h = std::min(out_h, height);
  for (int y = 0; y < copy_h; ++y) {
    const uint8_t* row = pixels->data() + (static_cast<size_t>(src_y + y) * width + src_x) * 3;
    const size_t target = static_cast<size_t>(dst_y + y) * out_w + dst_x;
    for (int x = 0; x < copy_w; ++x) {
      // Planes R, G, B from B, G, R.
      for (int c = 0; c < 3; ++c) out[c * plane + target + x] = lut[c][row[x * 3 + 2 - c]];
    }
  }
}

}  // namespace winnow
