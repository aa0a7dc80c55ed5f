// Compiled into every layer library so that a layer whose folder has no sources yet still forms
// a valid (empty) static library; CMake refuses a library without sources.
namespace winnow::detail {
[[maybe_unused]] static const int kLayerAnchor = 0;
}
