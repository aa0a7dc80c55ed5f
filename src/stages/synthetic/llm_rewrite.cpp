// llm_rewrite: each kept document rewritten by a language model behind an OpenAI-compatible
// chat endpoint, as Nemotron-CC's synthetic data is made (NeMo Curator's nemotron_cc stages):
// the document's text goes into a prompt template ({document}, rewrite_presets.h), is sent
// with a system prompt through io/chat_client.h (requests in flight shared by every worker,
// retries with backoff and Retry-After, timeouts), and the reply, post-processed as NeMo's
// Nemotron-CC pipelines do (rewrite_postprocess.h), goes into a field, replaces the text, or
// becomes a new document after its source (fan-out). A reply the post-processing rejects drops
// its document (or, as a new document, that document) with the reason; a document whose
// request still fails after the retries, or whose reply is not a chat completion, is an error
// record naming the document (on_error: skip) or ends the run (fail).
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "core/hash.h"
#include "core/row_builder.h"
#include "io/chat_client.h"
#include "io/chat_messages.h"
#include "stages/builtin_stages.h"
#include "stages/chat_endpoint.h"
#include "stages/synthetic/prompt_template.h"
#include "stages/synthetic/rewrite_postprocess.h"
#include "stages/synthetic/rewrite_presets.h"

namespace winnow {

namespace {

enum class RewriteOutput { kField, kText, kDocument };

struct RewriteSettings {
  ChatEndpointSettings endpoint;
  ChatRequestOptions request;  // model and sampling; the prompt is made per document
  std::string system_prompt;
  std::optional<PromptTemplate> prompt;
  RewritePreset post;  // the preset's post-processing (post: kNone when postprocess is off)
  RewriteOutput output = RewriteOutput::kField;
  std::string output_field;
  bool keep_source = false;
  std::string parent_id_field;
  int max_num_pairs = 10;
  uint64_t draw_seed = 0;
};

// One document's request: its reply, or why it has none.
struct Answer {
  bool sent = false;
  bool ok = false;
  std::string text;  // the reply's text; when !ok, the failure
  ReasonId failure_kind = kKept;
};

class LlmRewrite final : public Stage {
 public:
  LlmRewrite(RewriteSettings settings, StageContext& context)
      : s_(std::move(settings)),
        slots_(s_.endpoint.concurrency),
        skip_errors_(context.skip_errors()),
        name_(context.stage_name()),
        endpoint_failed_(context.declare_error("endpoint_failed")),
        bad_reply_(context.declare_error("bad_reply")),
        missing_prefix_(context.declare_reason("missing_prefix")),
        no_qa_pairs_(context.declare_reason("no_qa_pairs")),
        empty_reply_(context.declare_reason("empty_reply")),
        requests_key_(context.stage_name() + "/requests"),
        retries_key_(context.stage_name() + "/retries"),
        rewritten_(s_.output == RewriteOutput::kDocument ? context.declare_fan_out("rewritten")
                                                         : kKept) {}

  Status process(DocBatch& batch) override {
    std::vector<Answer> answers(batch.size());
    size_t row = 0;
    auto next = [&]() -> std::optional<ChatClient::Request> {
      while (row < batch.size() && !batch.kept(row)) ++row;
      if (row == batch.size()) return std::nullopt;
      const size_t r = row++;
      answers[r].sent = true;
      ChatRequestOptions request = s_.request;
      s_.prompt->render(batch.text(r), request.prompt);
      return ChatClient::Request{r, chat_text_request_json(request, s_.system_prompt)};
    };
    uint64_t requests = 0, retries = 0;
    auto done = [&](uint64_t tag, ChatReply reply) {
      Answer& answer = answers[tag];
      ++requests;
      retries += uint64_t(std::max(0, reply.attempts - 1));
      if (!reply.ok) {
        answer.text = fmt::format("{} after {} attempt{}", reply.error, reply.attempts,
                                  reply.attempts == 1 ? "" : "s");
        answer.failure_kind = endpoint_failed_;
        return;
      }
      auto text = chat_reply_text(reply.body);
      if (!text.is_ok()) {
        answer.text = text.status().message();
        answer.failure_kind = bad_reply_;
        return;
      }
      answer.ok = true;
      answer.text = std::move(text).value();
    };
    ChatClient(s_.endpoint.client, slots_).run(next, done);
    // Per step in stats.json: documents sent, and the attempts beyond each one's first.
    batch.stage_counts[requests_key_] += requests;
    batch.stage_counts[retries_key_] += retries;

    // Failures in row order, so that under fail the same document is named on every run.
    for (size_t r = 0; r < batch.size(); ++r) {
      if (!answers[r].sent || answers[r].ok) continue;
      const std::string message =
          fmt::format("{}: document {}: {}", name_, batch.id(r), answers[r].text);
      if (!skip_errors_) {
        return Status::errorf(
            "{} (on_error: fail; set on_error: skip to log such documents to errors/ and go on)",
            message);
      }
      mark_row_error(batch, r, answers[r].failure_kind, message);
      answers[r].sent = false;  // an error record now: carried as it is
    }

    std::vector<RewriteResult> results(batch.size());
    for (size_t r = 0; r < batch.size(); ++r) {
      if (!answers[r].sent) continue;
      results[r] = postprocess_reply(s_.post, batch.text(r), answers[r].text, s_.max_num_pairs,
                                     hash_u64(batch.key(r).value(), s_.draw_seed));
    }
    if (s_.output == RewriteOutput::kDocument) return add_documents(batch, answers, results);
    for (size_t r = 0; r < batch.size(); ++r) {
      if (!answers[r].sent) continue;
      if (ReasonId why = drop_reason(results[r].outcome); why != kKept) {
        batch.drop(r, why);
      } else if (s_.output == RewriteOutput::kText) {
        batch.set_text(r, results[r].text);
      } else {
        batch.annotation(s_.output_field, AnnotationType::kString).set_string(r, results[r].text);
      }
    }
    return Status::ok();
  }

 private:
  ReasonId drop_reason(RewriteOutcome outcome) const {
    switch (outcome) {
      case RewriteOutcome::kText:
        return kKept;
      case RewriteOutcome::kMissingPrefix:
        return missing_prefix_;
      case RewriteOutcome::kNoQaPairs:
        return no_qa_pairs_;
      case RewriteOutcome::kEmpty:
        return empty_reply_;
    }
    return empty_reply_;
  }

  // Each answered document gets a child right after it: the rewrite as its text, every other
  // field of its source, id "<source id>-<output_field>". A rejected rewrite is still made,
  // then dropped with its reason, so rejected/ shows it and the accounting holds at every
  // level; the source is kept (keep_source) or replaced by its child.
  Status add_documents(DocBatch& batch, const std::vector<Answer>& answers,
                       std::vector<RewriteResult>& results) {
    struct Child {
      size_t row, parent_row;
      ReasonId drop;
    };
    std::vector<Child> children;
    RowBuilder out(batch);
    for (size_t r = 0; r < batch.size(); ++r) {
      if (!answers[r].sent) {
        out.carry(r);
        continue;
      }
      const size_t parent = s_.keep_source ? out.carry(r) : out.carry_as(r, rewritten_);
      const size_t child = out.add_child(r, 0, rewritten_, results[r].text);
      out.set_id(child, fmt::format("{}-{}", batch.id(r), s_.output_field));
      children.push_back({child, parent, drop_reason(results[r].outcome)});
    }
    out.finish();
    if (children.empty()) return Status::ok();
    AnnotationColumn& parent_id = batch.annotation(s_.parent_id_field, AnnotationType::kString);
    for (const Child& c : children) {
      parent_id.set_string(c.row, batch.id(c.parent_row));
      if (c.drop != kKept) batch.drop(c.row, c.drop);
    }
    return Status::ok();
  }

  RewriteSettings s_;
  RequestSlots slots_;
  bool skip_errors_;
  std::string name_;  // the stage's name in the pipeline, for messages
  ReasonId endpoint_failed_, bad_reply_, missing_prefix_, no_qa_pairs_, empty_reply_;
  std::string requests_key_, retries_key_;
  ReasonId rewritten_;
};

Result<std::string> read_prompt_file(const StageParams& p) {
  const std::string& path = p.get_string("prompt_file");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return p.error("prompt_file", "cannot open " + path);
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
  std::fclose(f);
  return text;
}

std::vector<ParamSpec> llm_rewrite_params() {
  std::vector<ParamSpec> params = {
      {"preset", ParamType::kString, "wikipedia",
       "the rewrite, as Nemotron-CC's: wikipedia, diverse_qa, distill, extract_knowledge, "
       "knowledge_list (system prompt, prompt, output field, post-processing)"},
      {"prompt", ParamType::kString, "",
       "the user prompt template, {document} standing for the text ({{ and }} for braces, as "
       "Python's str.format); empty: the preset's"},
      {"prompt_file", ParamType::kString, "",
       "a file holding the prompt template (NeMo's own, for instance); in place of prompt"},
      {"system_prompt", ParamType::kString, "", "the system message; empty: the preset's"},
      {"use_system_prompt", ParamType::kBool, "true", "false: send the user message alone"},
      {"postprocess", ParamType::kBool, "true",
       "apply the preset's post-processing (false: the reply as it came)"},
      {"output", ParamType::kString, "field",
       "field (the reply in output_field), text (the reply replaces the text) or document (the "
       "reply becomes a new document after its source)"},
      {"output_field", ParamType::kString, "", "the field for the reply; empty: the preset's"},
      {"keep_source", ParamType::kBool, "false",
       "output: document: keep the source document too (false: replaced by its rewrite)"},
      {"parent_id_field", ParamType::kString, "parent_id",
       "output: document: the field for the source's id"},
      {"max_num_pairs", ParamType::kInt, "10",
       "diverse_qa: at most this many question-answer pairs kept (a seeded draw of 1 to it)"},
      {"model", ParamType::kString, "meta/llama-3.3-70b-instruct",
       "the served model's name (NeMo's Nemotron-CC tutorial's)"},
      {"max_tokens", ParamType::kInt, "1600", "longest reply, in tokens (NeMo's tutorial's)"},
      {"temperature", ParamType::kFloat, "0",
       "sampling temperature (0: greedy, the same reply on every run; NeMo's tutorial samples "
       "at 0.5)"},
      {"top_p", ParamType::kFloat, "1", "nucleus sampling (NeMo's tutorial: 0.9)"},
  };
  for (ParamSpec& p : chat_endpoint_params("300")) params.push_back(std::move(p));
  return params;
}

// The prompt template (the preset's, prompt, or prompt_file) and the system message.
Status read_prompts(const StageParams& p, const RewritePreset& preset, RewriteSettings& s) {
  if (p.given("prompt") && p.given("prompt_file")) {
    return p.error("prompt_file", "give prompt or prompt_file, not both");
  }
  std::string prompt(preset.prompt);
  const char* prompt_key = "prompt";
  if (!p.get_string("prompt_file").empty()) {
    auto text = read_prompt_file(p);
    if (!text.is_ok()) return text.status();
    prompt = std::move(text).value();
    prompt_key = "prompt_file";
  } else if (!p.get_string("prompt").empty()) {
    prompt = p.get_string("prompt");
  }
  auto parsed = PromptTemplate::parse(prompt);
  if (!parsed.is_ok()) return p.error(prompt_key, parsed.status().message());
  s.prompt = std::move(parsed).value();
  if (p.get_bool("use_system_prompt")) {
    s.system_prompt = p.get_string("system_prompt").empty() ? std::string(preset.system_prompt)
                                                            : p.get_string("system_prompt");
  }
  s.post = preset;
  if (!p.get_bool("postprocess")) s.post.post = RewritePost::kNone;
  return Status::ok();
}

// Where the reply goes: a field, the text, or a new document after its source.
Status read_output(const StageParams& p, const RewritePreset& preset, RewriteSettings& s) {
  auto output = p.get_choice<RewriteOutput>("output", {{"field", RewriteOutput::kField},
                                                       {"text", RewriteOutput::kText},
                                                       {"document", RewriteOutput::kDocument}});
  if (!output.is_ok()) return output.status();
  s.output = *output;
  s.output_field = p.get_string("output_field").empty() ? std::string(preset.output_field)
                                                        : p.get_string("output_field");
  s.keep_source = p.get_bool("keep_source");
  s.parent_id_field = p.get_string("parent_id_field");
  if (s.output == RewriteOutput::kDocument && s.parent_id_field.empty()) {
    return p.error("parent_id_field", "must name a field");
  }
  const int64_t pairs = p.get_int("max_num_pairs");
  if (pairs < 1 || pairs > 1000) return p.error("max_num_pairs", "must be 1 to 1000");
  s.max_num_pairs = static_cast<int>(pairs);
  return Status::ok();
}

// The request's model and sampling, and the seeds: the endpoint's sampler (vLLM honours it)
// and the QA draws both follow the pipeline seed.
Status read_request(const StageParams& p, StageContext& context, RewriteSettings& s) {
  s.request.model = p.get_string("model");
  if (s.request.model.empty()) return p.error("model", "must name the served model");
  s.request.max_tokens = p.get_int("max_tokens");
  if (s.request.max_tokens < 1) return p.error("max_tokens", "must be 1 or more");
  s.request.temperature = p.get_float("temperature");
  if (s.request.temperature < 0) return p.error("temperature", "must be 0 or more");
  s.request.top_p = p.get_float("top_p");
  if (!(s.request.top_p > 0 && s.request.top_p <= 1)) {
    return p.error("top_p", "must be above 0 and at most 1");
  }
  s.request.seed = static_cast<int64_t>(context.seed() & 0x7fffffff);
  s.draw_seed = context.seed() ^ hash64(context.stage_name());
  return Status::ok();
}

}  // namespace

StageSpec llm_rewrite_spec() {
  StageSpec spec{
      "llm_rewrite",
      "Rewrites each kept document with a language model behind an OpenAI-compatible chat "
      "endpoint, as Nemotron-CC's synthetic data (NeMo Curator's WikipediaParaphrasingStage, "
      "DiverseQAStage, DistillStage, ExtractKnowledgeStage, KnowledgeListStage): preset "
      "wikipedia, diverse_qa, distill, extract_knowledge or knowledge_list gives the system "
      "prompt, the prompt template ({document}), the output field and the post-processing of "
      "NeMo's Nemotron-CC pipelines (Markdown removed; wikipedia and distill replies must open "
      "with the asked line, which is cut, then outer quotes removed; extract_knowledge's "
      "\"Passage:\" lines removed; diverse_qa: the document followed by 1 to max_num_pairs of "
      "its question-answer pairs, shuffled by a seeded draw per document; knowledge_list: list "
      "markers and a heading removed). prompt or prompt_file and system_prompt replace the "
      "preset's texts. The reply goes into output_field, replaces the text (output: text) or "
      "becomes a new document after its source, with the source's fields, id "
      "<source id>-<output_field> and parent_id (output: document). Requests carry temperature "
      "and the pipeline seed; at most concurrency in flight across the stage's workers; "
      "connection errors, timeouts, 429 and 5xx are retried (backoff_s doubled, a Retry-After "
      "honoured, at most max_backoff_s); other 4xx are final. Reasons missing_prefix, "
      "no_qa_pairs, empty_reply; errors endpoint_failed, bad_reply (errors/ under on_error: "
      "skip; the run stops under fail).",
      llm_rewrite_params(),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        RewriteSettings s;
        const RewritePreset* preset = find_rewrite_preset(p.get_string("preset"));
        if (!preset) return p.error("preset", "must be one of " + rewrite_preset_names());
        auto endpoint = chat_endpoint_settings(p);
        if (!endpoint.is_ok()) return endpoint.status();
        s.endpoint = std::move(endpoint).value();

        if (Status status = read_prompts(p, *preset, s); !status.is_ok()) return status;
        if (Status status = read_output(p, *preset, s); !status.is_ok()) return status;
        if (Status status = read_request(p, context, s); !status.is_ok()) return status;
        return std::unique_ptr<Stage>(new LlmRewrite(std::move(s), context));
      },
  };
  return spec;
}

}  // namespace winnow
