// decontaminate: removes evaluation tasks' text from a corpus (NeMo Curator's
// TaskDecontamination). The tasks' n-grams (task_ngrams.h: 13-grams of normalised words, or a
// whole short text of at least 8 words) are hashed into one table when the pipeline is loaded,
// shared read-only by every worker; each document is tokenised once and its n-grams looked up
// with a rolling hash (contamination_splitter.h).
//
// action: split (NeMo's behaviour) cuts each match out with `remove_char_each_side` code points
// on each side, widened to sentence ends, and keeps the pieces longer than
// `min_document_length` as documents of their own (a fan-out, as `chunk`: ids
// "<parent id>-<index>", every other field the parent's); a document left with no piece is
// dropped as `contaminated`, one split into more than `max_splits` pieces as
// `too_many_splits` (score: its pieces). A document without a match is left as it is.
// action: drop drops every document with a match as `contaminated`.
//
// max_matches > 0 makes the stage a global step (match_counter.h): a first pass counts each
// task n-gram's matches over the corpus, and those found more than max_matches times are left.
//
// Counts in stats.json (the step's counts): `matches/<task>` (matches cut out, or in drop mode
// documents dropped, by the task whose n-gram matched first) and `documents_matched`.
#include <memory>
#include <string>
#include <vector>

#include "core/row_builder.h"
#include "stages/builtin_stages.h"
#include "stages/decontaminate/contamination_splitter.h"
#include "stages/decontaminate/match_counter.h"

namespace winnow {

namespace {

enum class DecontaminateAction { kSplit, kDrop };

class DecontaminateStage final : public Stage {
 public:
  DecontaminateStage(std::shared_ptr<const TaskNgrams> tasks, DecontaminateAction action,
                     SplitRules rules, size_t max_splits, uint64_t max_matches,
                     StageContext& context)
      : tasks_(std::move(tasks)),
        counter_(max_matches > 0 ? std::make_unique<TaskMatchCounter>(tasks_, max_matches)
                                 : nullptr),
        action_(action),
        rules_(rules),
        max_splits_(max_splits),
        split_(context.declare_fan_out("split")),
        contaminated_(context.declare_reason("contaminated")),
        too_many_splits_(context.declare_reason("too_many_splits")),
        documents_key_(context.stage_name() + "/documents_matched") {
    for (const std::string& name : tasks_->task_names) {
      task_keys_.push_back(context.stage_name() + "/matches/" + name);
    }
  }

  Status process(DocBatch& batch) override {
    thread_local std::vector<std::string_view> pieces;
    thread_local std::vector<TaskMatch> matches;
    ContaminationSplitter splitter(*tasks_, counter_ ? &counter_->too_common() : nullptr);
    std::vector<uint64_t> per_task(task_keys_.size(), 0);
    uint64_t documents = 0;
    if (action_ == DecontaminateAction::kDrop) {
      for (size_t i = 0; i < batch.size(); ++i) {
        if (!batch.kept(i)) continue;
        splitter.reset(batch.text(i));
        std::optional<TaskMatch> match = splitter.first_match(0);
        if (!match) continue;
        ++documents;
        ++per_task[match->task];
        batch.drop(i, contaminated_);
      }
      add_counts(batch, documents, per_task);
      return Status::ok();
    }
    RowBuilder out(batch);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) {
        out.carry(i);
        continue;
      }
      splitter.split(batch.text(i), rules_, pieces, matches);
      if (matches.empty()) {
        out.carry(i);
        continue;
      }
      ++documents;
      for (const TaskMatch& m : matches) ++per_task[m.task];
      if (pieces.empty()) {
        batch.drop(i, contaminated_);
        out.carry(i);
        continue;
      }
      if (pieces.size() > max_splits_) {
        batch.drop(i, too_many_splits_, static_cast<double>(pieces.size()));
        out.carry(i);
        continue;
      }
      out.carry_as(i, split_);
      for (size_t j = 0; j < pieces.size(); ++j) {
        out.add_child(i, static_cast<uint32_t>(j), split_, pieces[j]);
      }
    }
    out.finish();
    add_counts(batch, documents, per_task);
    return Status::ok();
  }

  GlobalStep* global_step() override { return counter_.get(); }

 private:
  void add_counts(DocBatch& batch, uint64_t documents, const std::vector<uint64_t>& per_task) {
    if (documents == 0) return;
    batch.stage_counts[documents_key_] += documents;
    for (size_t t = 0; t < per_task.size(); ++t) {
      if (per_task[t] > 0) batch.stage_counts[task_keys_[t]] += per_task[t];
    }
  }

  std::shared_ptr<const TaskNgrams> tasks_;
  std::unique_ptr<TaskMatchCounter> counter_;  // with max_matches only
  DecontaminateAction action_;
  SplitRules rules_;
  size_t max_splits_;
  ReasonId split_;
  ReasonId contaminated_;
  ReasonId too_many_splits_;
  std::string documents_key_;
  std::vector<std::string> task_keys_;
};

}  // namespace

StageSpec decontaminate_spec() {
  StageSpec spec{
      "decontaminate",
      "Removes evaluation tasks' n-grams from documents (NeMo's TaskDecontamination): cuts each "
      "match out with a margin to sentence ends and keeps the long pieces as documents, or drops "
      "the document.",
      {
          {"tasks", ParamType::kStringList, "",
           "task files (JSON Lines or Parquet), each one task named after its file", true},
          {"fields", ParamType::kStringList, "['text']",
           "the task records' fields to protect: a string, or a list of strings, each a text "
           "(Parquet: the first must be a string column)"},
          {"ngram_size", ParamType::kInt, "13",
           "words per n-gram (NeMo's max_ngram_size); a task text of fewer words is one n-gram"},
          {"min_ngram_size", ParamType::kInt, "8", "task texts of fewer words are not protected"},
          {"action", ParamType::kString, "split",
           "split (cut the matches out, keep the pieces as documents) or drop (the document)"},
          {"remove_char_each_side", ParamType::kInt, "200",
           "code points removed on each side of a match, then on to a sentence end"},
          {"min_document_length", ParamType::kInt, "200",
           "pieces of at most this many code points are dropped"},
          {"max_splits", ParamType::kInt, "10",
           "a document split into more pieces is dropped (too_many_splits)"},
          {"max_matches", ParamType::kInt, "0",
           "N > 0: a first pass counts each task n-gram's matches in the corpus, and those found "
           "more than N times are not removed (NeMo's max_matches, 10 there); 0: all are, in "
           "one pass"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        auto action = p.get_choice<DecontaminateAction>(
            "action", {{"split", DecontaminateAction::kSplit}, {"drop", DecontaminateAction::kDrop}});
        if (!action.is_ok()) return action.status();
        for (const char* key :
             {"remove_char_each_side", "min_document_length", "max_splits", "max_matches"}) {
          if (p.get_int(key) < 0) return p.error(key, "must be 0 or more");
        }
        const int64_t ngram_size = p.get_int("ngram_size");
        const int64_t min_ngram_size = p.get_int("min_ngram_size");
        if (ngram_size < 1 || ngram_size > 1000) return p.error("ngram_size", "must be 1 to 1000");
        if (min_ngram_size < 1 || min_ngram_size > ngram_size) {
          return p.error("min_ngram_size", "must be 1 to ngram_size");
        }
        TaskNgramOptions options;
        options.fields = p.get_string_list("fields");
        if (options.fields.empty()) return p.error("fields", "name at least one field");
        options.ngram_size = static_cast<size_t>(ngram_size);
        options.min_ngram_size = static_cast<size_t>(min_ngram_size);
        const std::vector<std::string>& files = p.get_string_list("tasks");
        if (files.empty()) return p.error("tasks", "name at least one task file");
        TaskNgramBuilder builder(options);
        for (const std::string& file : files) {
          Status added = builder.add_file(file);
          if (!added.is_ok()) return p.error("tasks", added.message());
        }
        SplitRules rules{static_cast<size_t>(p.get_int("remove_char_each_side")),
                         static_cast<size_t>(p.get_int("min_document_length"))};
        return std::unique_ptr<Stage>(new DecontaminateStage(
            builder.build(), action.value(), rules, static_cast<size_t>(p.get_int("max_splits")),
            static_cast<uint64_t>(p.get_int("max_matches")), context));
      },
  };
  spec.record_fields = [](const StageParams&) { return RecordFields::none(); };
  return spec;
}

}  // namespace winnow
