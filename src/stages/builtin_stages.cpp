#include "stages/builtin_stages.h"

#include <set>
#include <string>
#include <vector>

#include "core/item_thumbnail.h"
#include "media/image_thumbnail.h"
#include "stages/modify/text_modifier.h"
#include "stages/text_quality/nemo_filters.h"
#include "stages/text_quality/quality_sets.h"

namespace winnow {

void register_builtin_stages(StageRegistry& registry) {
  // report.html's picture sample: the writer (pipeline/) reaches the image decoders through
  // this hook, installed wherever the stages are, since pipeline/ cannot link OpenCV.
  set_item_thumbnailer(&item_thumbnail);
  registry.add(text_length_spec());
  registry.add(select_spec());
  registry.add(sample_spec());
  registry.add(add_id_spec());
  registry.add(chunk_spec());
  registry.add(join_spec());
  registry.add(exact_dedup_spec());
  registry.add(fuzzy_dedup_spec());
  registry.add(semantic_dedup_spec());
  // Heuristic text-quality filters (issue #3): NeMo's one per stage, then the Gopher, C4,
  // FineWeb sets and the code filters.
  auto names = [&registry] {
    std::set<std::string> out;
    for (const StageSpec* spec : registry.all()) out.insert(spec->name);
    return out;
  };
  const std::set<std::string> before_quality = names();
  add_nemo_char_filters(registry);
  add_nemo_word_filters(registry);
  add_nemo_line_filters(registry);
  add_nemo_repetition_filters(registry);
  add_quality_set_filters(registry);
  std::set<std::string> text_readers;  // the quality filters just added
  for (const std::string& name : names()) {
    if (!before_quality.count(name)) text_readers.insert(name);
  }
  registry.add(unicode_fix_spec());
  // NeMo's text modifiers (issue #35): rewrite the text, keep the record.
  const std::vector<StageSpec> modifiers = {boilerplate_string_modifier_spec(),
                                            line_remover_spec(),
                                            markdown_remover_spec(),
                                            newline_normalizer_spec(),
                                            quotation_remover_spec(),
                                            slicer_spec(),
                                            url_remover_spec(),
                                            unicode_reformatter_spec()};
  for (const StageSpec& spec : modifiers) registry.add(spec);
  registry.add(language_id_spec());
  registry.add(fasttext_classify_spec());
  registry.add(fasttext_quality_spec());
  registry.add(html_extract_spec());
  // NeMo's tokenizer filters on a SentencePiece model.
  registry.add(token_count_spec());
  registry.add(tokenizer_fertility_spec());
  // Neural and hashed embeddings (issue #13).
  registry.add(embed_spec());
  registry.add(classify_spec());
  registry.add(tokenize_spec());
  // Images (issue #17): filters on the header and the working image, exact and perceptual
  // dedup.
  registry.add(image_size_filter_spec());
  registry.add(image_blur_filter_spec());
  registry.add(image_brisque_filter_spec());
  registry.add(image_exact_dedup_spec());
  registry.add(image_dedup_spec());
  registry.add(image_embed_spec());
  registry.add(image_aesthetic_filter_spec());
  registry.add(image_nsfw_filter_spec());
  registry.add(embedding_similarity_spec());
  registry.add(split_video_spec());
  registry.add(transcode_clips_spec());
  registry.add(caption_spec());
  registry.add(motion_filter_spec());
  registry.add(frame_quality_spec());
  registry.add(clip_embed_spec());
  registry.add(clip_aesthetic_filter_spec());
  registry.add(pii_redact_spec());
  registry.add(decontaminate_spec());
  registry.add(llm_rewrite_spec());
  registry.add(resample_spec());
  registry.add(duration_filter_spec());
  registry.add(audio_bandwidth_spec());
  registry.add(wer_spec());
  registry.add(vad_segment_spec());
  registry.add(transcribe_spec());

  // Stages that only read an item's text (and annotate or drop it) take images and audio too:
  // a WebDataset sample's text is its caption (io/webdataset_reader.h), so caption filters,
  // caption language and caption embeddings (for image_text_similarity) are the text stages;
  // an audio item's text is its manifest's reference transcript (io/audio_manifest_reader.h).
  // Stages that change text or make new items stay with documents: the caption member and the
  // manifest's text field are written back unchanged.
  for (const char* name : {"text_length", "language_id", "fasttext_classify", "fasttext_quality",
                           "token_count", "tokenizer_fertility", "tokenize", "embed", "classify"}) {
    text_readers.insert(name);
  }
  for (const std::string& name : text_readers) {
    registry.add_takes(name, ItemKinds(ItemKind::kImage) | ItemKind::kAudio);
  }

  // Stages checked to read nothing of the input record by name (DocBatch::record): only the
  // text, id, key, annotations, so a pass of them and the input's text and id reads only those
  // columns of a Parquet input. Stages that read fields declare them in their own spec (select,
  // html_extract, the dedup stages); every other stage (images, video, Python) may read any.
  for (const char* name :
       {"text_length", "sample", "add_id", "chunk", "join", "unicode_fix", "exact_dedup",
        "pii_redact", "llm_rewrite"}) {
    text_readers.insert(name);
  }
  for (const StageSpec& spec : modifiers) text_readers.insert(spec.name);
  for (const std::string& name : text_readers) registry.set_reads_no_record_fields(name);
}

}  // namespace winnow
