#include "stages/audio/nemo_asr_config.h"

#include <yaml-cpp/yaml.h>

#include <cmath>

namespace winnow {

namespace {

template <class T>
T value_or(const YAML::Node& section, const char* key, T fallback) {
  const YAML::Node node = section[key];
  return node && !node.IsNull() ? node.as<T>() : fallback;
}

// The settings winnow does not compute, refused by key; empty when none is set.
std::string unsupported(const YAML::Node& p) {
  if (value_or<int>(p, "frame_splicing", 1) != 1) return "frame_splicing (only 1)";
  if (value_or<bool>(p, "exact_pad", false)) return "exact_pad (only false)";
  if (value_or<std::string>(p, "log_zero_guard_type", "add") != "add") {
    return "log_zero_guard_type (only add)";
  }
  if (value_or<std::string>(p, "mel_norm", "slaney") != "slaney") return "mel_norm (only slaney)";
  const std::string normalize = value_or<std::string>(p, "normalize", "per_feature");
  if (normalize != "per_feature" && normalize != "NA" && normalize != "none") {
    return "normalize (per_feature or NA)";
  }
  const std::string window = value_or<std::string>(p, "window", "hann");
  if (window != "hann" && window != "hamming" && window != "none") {
    return "window (hann, hamming or none)";
  }
  return {};
}

MelOptions mel_options(const YAML::Node& p) {
  MelOptions m;
  m.sample_rate = value_or<int>(p, "sample_rate", 16000);
  m.win_length = value_or<int>(p, "n_window_size",
                               int(value_or<double>(p, "window_size", 0.02) * m.sample_rate));
  m.hop_length = value_or<int>(p, "n_window_stride",
                               int(value_or<double>(p, "window_stride", 0.01) * m.sample_rate));
  const int fft = 1 << int(std::ceil(std::log2(std::max(m.win_length, 1))));
  m.n_fft = value_or<int>(p, "n_fft", fft);
  m.n_mels = value_or<int>(p, "features", value_or<int>(p, "nfilt", 64));
  m.fmin = value_or<double>(p, "lowfreq", 0);
  m.fmax = value_or<double>(p, "highfreq", 0);
  m.window = value_or<std::string>(p, "window", "hann");
  m.per_feature = value_or<std::string>(p, "normalize", "per_feature") == "per_feature";
  m.log = value_or<bool>(p, "log", true);
  m.log_guard = value_or<double>(p, "log_zero_guard_value", m.log_guard);
  m.preemph = value_or<double>(p, "preemph", 0.97);
  m.mag_power = value_or<double>(p, "mag_power", 2.0);
  return m;
}

}  // namespace

Result<NemoAsrConfig> read_nemo_asr_config(const std::string& path) {
  try {
    const YAML::Node root = YAML::LoadFile(path);
    const YAML::Node p = root["preprocessor"];
    if (!p || !p.IsMap()) return Status::errorf("ASR config '{}': no preprocessor section", path);
    if (std::string key = unsupported(p); !key.empty()) {
      return Status::errorf("ASR config '{}': preprocessor.{} is not supported", path, key);
    }
    NemoAsrConfig config;
    config.mel = mel_options(p);
    const MelOptions& m = config.mel;
    if (m.win_length < 1 || m.hop_length < 1 || m.n_mels < 1 || m.n_fft < m.win_length ||
        (m.n_fft & (m.n_fft - 1)) != 0) {
      return Status::errorf(
          "ASR config '{}': window {}, stride {}, n_fft {} (a power of two, at "
          "least the window) and features {} do not fit",
          path, m.win_length, m.hop_length, m.n_fft, m.n_mels);
    }
    YAML::Node vocabulary = root["decoder"] ? root["decoder"]["vocabulary"] : YAML::Node();
    if (!vocabulary || !vocabulary.IsSequence()) vocabulary = root["labels"];
    if (!vocabulary || !vocabulary.IsSequence() || vocabulary.size() == 0) {
      return Status::errorf("ASR config '{}': no decoder.vocabulary (or labels) list", path);
    }
    for (const auto& token : vocabulary) config.vocabulary.push_back(token.as<std::string>());
    if (root["encoder"])
      config.subsampling = value_or<int>(root["encoder"], "subsampling_factor", 0);
    if (config.subsampling < 0) {
      return Status::errorf("ASR config '{}': encoder.subsampling_factor must be 1 or more", path);
    }
    return config;
  } catch (const YAML::Exception& e) {
    return Status::errorf("ASR config '{}': {}", path, e.what());
  }
}

}  // namespace winnow
