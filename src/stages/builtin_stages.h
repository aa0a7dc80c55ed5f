#pragma once
// The general-purpose stages every pipeline can use. Each file in this folder defines one
// stage and exposes its StageSpec; register_builtin_stages adds them all to a registry.
#include "core/stage.h"

namespace winnow {

StageSpec text_length_spec();
StageSpec select_spec();
StageSpec sample_spec();
StageSpec add_id_spec();
StageSpec chunk_spec();
StageSpec join_spec();
StageSpec exact_dedup_spec();
StageSpec fuzzy_dedup_spec();
StageSpec semantic_dedup_spec();
StageSpec unicode_fix_spec();
StageSpec language_id_spec();
StageSpec fasttext_classify_spec();
StageSpec fasttext_quality_spec();
StageSpec html_extract_spec();
StageSpec token_count_spec();          // tokenizer_filters.cpp
StageSpec tokenizer_fertility_spec();  // tokenizer_filters.cpp
StageSpec embed_spec();
StageSpec classify_spec();
StageSpec tokenize_spec();
// Images (issue #17): image/image_filters.cpp, dedup/image_dedup.cpp.
StageSpec image_size_filter_spec();
StageSpec image_blur_filter_spec();
StageSpec image_brisque_filter_spec();
StageSpec image_exact_dedup_spec();
StageSpec image_dedup_spec();
// Image models (issue #17): image/image_models.cpp.
StageSpec image_embed_spec();
StageSpec image_aesthetic_filter_spec();
StageSpec image_nsfw_filter_spec();
// Two embeddings' cosine (the CLIP score): models/embedding_similarity.cpp.
StageSpec embedding_similarity_spec();
// Image encoders on clips' frames: video/clip_models.cpp.
StageSpec clip_embed_spec();
StageSpec clip_aesthetic_filter_spec();
// Videos (issue #16): video/split_video.cpp, video/transcode_clips.cpp, video/clip_filters.cpp,
// video/caption.cpp.
StageSpec split_video_spec();
StageSpec transcode_clips_spec();
StageSpec motion_filter_spec();
StageSpec frame_quality_spec();
StageSpec caption_spec();  // video/caption.cpp
// Personal data (issue #36): privacy/pii_redact.cpp.
StageSpec pii_redact_spec();
// Benchmark decontamination (issue #36): decontaminate/decontaminate.cpp.
StageSpec decontaminate_spec();
// Synthetic data (issue #36): synthetic/llm_rewrite.cpp.
StageSpec llm_rewrite_spec();

// Audio (issue #39): audio/resample.cpp, audio/duration_filter.cpp, audio/audio_bandwidth.cpp,
// audio/wer.cpp, audio/vad_segment.cpp, audio/transcribe.cpp.
StageSpec resample_spec();
StageSpec duration_filter_spec();
StageSpec audio_bandwidth_spec();
StageSpec wer_spec();
StageSpec vad_segment_spec();
StageSpec transcribe_spec();

void register_builtin_stages(StageRegistry& registry);

}  // namespace winnow
