#pragma once
// GlobalStep: a stage that can decide only after it has seen the whole input (deduplication,
// clustering). The pipeline runs such a stage in two passes:
//   1. identify: every document kept by the stages before it is shown to observe() (from many
//      threads); finish_identify() then builds the decision (a removal list) and writes it,
//      with a summary, into the result folder. The pipeline marks the folder complete only
//      after that, so a killed run never leaves a result that looks whole.
//      A step may ask for further passes before deciding (another_pass()).
//   2. remove: the ordinary streaming pass, where the stage's process() drops what was
//      decided. A later run whose fingerprint matches calls load_result() instead of pass 1.
// Pipelines with several global steps run one identify pass per step, in stage order, each
// seeing the documents the earlier steps keep.
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "core/report_pair.h"
#include "core/status.h"

// dist::Comm (dist/comm.h) is declared, not included: core sits below dist, and a step only
// passes the pointer on to the dedup code that uses it.
namespace winnow::dist {
class Comm;
}

namespace winnow {

struct GlobalStepContext {
  std::string result_dir;  // exists and is empty; the step's durable result goes here
  std::string spill_dir;   // scratch for spill files (this rank's); removed afterwards
  int threads = 1;         // threads the step may use in finish_identify()
  std::vector<std::string> input_paths;  // by shard index, for messages naming a file
  // The ranks of the run (null: one process). Each rank observes the documents of its own
  // shards; finish_identify() is collective (every rank calls it) and gives every rank the
  // same decision; only rank 0 writes the result folder.
  dist::Comm* comm = nullptr;
  // A folder that outlives a failed run (the output's global/_checkpoints/<stage>), for a step
  // that checkpoints its identify state so that a rerun resumes; removed once the result is
  // whole. `fingerprint`: the result's (stages, parameters, seed, inputs), which a checkpoint
  // must match to be used.
  std::string checkpoint_dir;
  std::string fingerprint;
};

class GlobalStep {
 public:
  virtual ~GlobalStep() = default;

  virtual Status begin_identify(const GlobalStepContext& context) = 0;
  // After begin_identify(): true when the step resumes from a checkpoint of an earlier run and
  // needs no identify pass; the pipeline then calls finish_identify() directly. The same on
  // every rank.
  virtual bool resume_identify() { return false; }
  // Thread-safe. Looks at kept documents only and changes nothing.
  virtual Status observe(const DocBatch& batch) = 0;
  // Called after each identify pass: true asks for another one over the same documents (say,
  // to re-read the texts of the candidates found by the first). Most steps need one.
  virtual bool another_pass() { return false; }
  virtual Status finish_identify() = 0;
  // Loads the result written by an earlier finish_identify() into `result_dir`.
  virtual Status load_result(const std::string& result_dir) = 0;

  // The result's summary as a JSON object (for stats.json), and as lines for the terminal.
  virtual std::string summary_json() const = 0;
  virtual std::string summary_text() const = 0;
  // Optional: an HTML fragment for report.html (tables, charts); empty shows the text.
  virtual std::string summary_html() const { return {}; }

  // report.html's near-duplicate pairs: before begin_identify() or load_result(), the pipeline
  // says how many pairs to sample and with which seed (0: none); the step chooses them from its
  // result (the same for the same run), the writing pass's process() keeps the chosen items'
  // texts or pictures, and report_pairs() gives the pairs whose both items it saw.
  virtual void set_report_sample(size_t pairs, uint64_t seed) {
    (void)pairs;
    (void)seed;
  }
  virtual std::vector<ReportPair> report_pairs() const { return {}; }
};

}  // namespace winnow
