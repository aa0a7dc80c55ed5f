#pragma once
// One loaded copy per model file, shared by every stage (and worker) that names it and freed
// with its last user: a pipeline that runs the same model in two stages loads it once. The file
// is keyed by its canonical path. Loading happens under the cache's lock, so a second stage
// naming the same file waits for the first load instead of loading it again.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "core/status.h"

namespace winnow {

// `kind` names the model in errors ("fastText model"); `load_file` reads the file at `path`
// (called only when no live copy exists) and says what is wrong with it otherwise.
template <typename Model, typename LoadFile>
Result<std::shared_ptr<const Model>> load_shared_model(std::string_view kind,
                                                       const std::string& path,
                                                       LoadFile load_file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Status::errorf("{} '{}' does not exist or is not a file", kind, path);
  }
  std::string key = std::filesystem::canonical(path, ec).string();
  if (ec) key = path;

  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const Model>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto shared = loaded[key].lock()) return shared;
  Result<std::shared_ptr<Model>> model = load_file();
  if (!model.is_ok()) return model.status();
  loaded[key] = model.value();
  return std::shared_ptr<const Model>(std::move(model).value());
}

}  // namespace winnow
