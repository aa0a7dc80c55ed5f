// pii_redact: finds personal data in each kept document (text/pii_detectors.h) and redacts it
// with a typed placeholder, replaces it with a stable fake of its kind, replaces it with a
// seeded hash, or drops the document; the action is chosen per entity. NeMo Curator's
// PiiModifier (Presidio) does this with regex recognizers and a spaCy model; the rule-based
// detectors here are hand-written scanners (one pass, no regex engine). With `ner_model`, a
// token-classification model (models/ner_tagger.h) adds PERSON, LOCATION and ORGANIZATION
// spans, as Presidio's spaCy/transformers recognisers and NeMo's GLiNER option do; where one of
// its spans overlaps a rule detector's, the rule's (validated) span wins.
#include <array>
#include <string>
#include <vector>

#include "core/hash.h"
#include "models/ner_tagger.h"
#include "stages/builtin_stages.h"
#include "stages/models/onnx_model_params.h"
#include "text/ner_spans.h"
#include "text/pii_detectors.h"
#include "text/pii_fakes.h"

namespace winnow {

namespace {

enum class PiiAction : uint8_t { kRedact, kReplace, kHash, kDrop };

Result<PiiAction> parse_action(const StageParams& p, const std::string& key,
                               std::string_view name) {
  if (name == "redact") return PiiAction::kRedact;
  if (name == "replace") return PiiAction::kReplace;
  if (name == "hash") return PiiAction::kHash;
  if (name == "drop") return PiiAction::kDrop;
  return p.error(
      key, "the action must be redact, replace, hash or drop, not '" + std::string(name) + "'");
}

struct PiiRedactConfig {
  PiiEntityMask entities = kRulePiiEntities;  // the rule detectors'
  std::array<PiiAction, kPiiEntityCount> actions{};
  uint64_t seed = 0;
  bool annotate = false;
  std::shared_ptr<const NerTagger> ner;  // null: rule detectors alone
};

class PiiRedactStage final : public Stage {
 public:
  PiiRedactStage(PiiRedactConfig config, StageContext& context)
      : config_(config), column_(context.stage_name()), pii_(context.declare_reason("pii")) {
    for (PiiAction action : config_.actions) any_drop_ |= action == PiiAction::kDrop;
    // stats.json's counts of this step: "<stage>/<ENTITY>" entities found, and the documents
    // whose text was rewritten.
    for (size_t k = 0; k < kPiiEntityCount; ++k) {
      count_keys_[k] =
          context.stage_name() + "/" + std::string(pii_entity_name(static_cast<PiiEntity>(k)));
    }
    changed_key_ = context.stage_name() + "/documents_changed";
  }

  Status process(DocBatch& batch) override {
    AnnotationColumn* column =
        config_.annotate ? &batch.annotation(column_, AnnotationType::kInt) : nullptr;
    std::vector<std::vector<PiiSpan>> model_spans;
    WINNOW_RETURN_IF_ERROR(find_model_spans(batch, model_spans));
    std::vector<PiiSpan> spans;
    std::string rewritten;
    std::array<uint64_t, kPiiEntityCount> found{};
    uint64_t changed = 0;
    for (size_t i = 0, kept = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      std::string_view text = batch.text(i);
      find_pii(text, config_.entities, spans);
      if (config_.ner) add_ner_spans(model_spans[kept++], spans);
      if (column) column->set_int(i, static_cast<int64_t>(spans.size()));
      if (spans.empty()) continue;
      bool drop = false;
      for (const PiiSpan& span : spans) {
        ++found[static_cast<size_t>(span.entity)];
        drop |= any_drop_ && action_of(span.entity) == PiiAction::kDrop;
      }
      if (drop) {
        batch.drop(i, pii_, static_cast<double>(spans.size()));
        continue;
      }
      rewrite(text, spans, rewritten);
      batch.set_text(i, rewritten);
      ++changed;
    }
    for (size_t k = 0; k < kPiiEntityCount; ++k) {
      if (found[k]) batch.stage_counts[count_keys_[k]] += found[k];
    }
    if (changed) batch.stage_counts[changed_key_] += changed;
    return Status::ok();
  }

 private:
  PiiAction action_of(PiiEntity entity) const {
    return config_.actions[static_cast<size_t>(entity)];
  }

  // The model's spans of each kept document, in order (none without a model). All kept
  // documents of the batch run through the model together.
  Status find_model_spans(const DocBatch& batch, std::vector<std::vector<PiiSpan>>& out) const {
    out.clear();
    if (!config_.ner) return Status::ok();
    std::vector<std::string_view> texts;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (batch.kept(i)) texts.push_back(batch.text(i));
    }
    return config_.ner->find(texts, out);
  }

  // `text` with each span rewritten by its entity's action (drop excepted), into `out`.
  void rewrite(std::string_view text, const std::vector<PiiSpan>& spans, std::string& out) const {
    out.clear();
    size_t from = 0;
    for (const PiiSpan& span : spans) {
      out.append(text.substr(from, span.begin - from));
      std::string_view original = text.substr(span.begin, span.end - span.begin);
      switch (action_of(span.entity)) {
        case PiiAction::kRedact:
          out += '<';
          out += pii_entity_name(span.entity);
          out += '>';
          break;
        case PiiAction::kReplace:
          append_pii_fake(span.entity, original, config_.seed, out);
          break;
        case PiiAction::kHash:
          append_pii_hash(original, config_.seed, out);
          break;
        case PiiAction::kDrop:
          break;  // handled by process
      }
      from = span.end;
    }
    out.append(text.substr(from));
  }

  PiiRedactConfig config_;
  std::string column_;
  ReasonId pii_;
  bool any_drop_ = false;
  std::array<std::string, kPiiEntityCount> count_keys_;
  std::string changed_key_;
};

// `entities` (rule detectors) or `ner_entities` (the model's) into a mask; `allowed` the
// entities the key may name.
Status read_entity_list(const StageParams& p, const std::string& key, PiiEntityMask allowed,
                        PiiEntityMask& mask) {
  if (!p.has(key) || p.get_string_list(key).empty()) return Status::ok();
  mask = 0;
  for (const std::string& name : p.get_string_list(key)) {
    auto entity = pii_entity_from_name(name);
    if (!entity) return p.error(key, "unknown entity '" + name + "'");
    if (!(allowed & pii_bit(*entity))) {
      return p.error(key, "'" + name + "' is not found by " +
                              (key == "entities" ? "the rule detectors: see ner_entities"
                                                 : "the named-entity model: see entities"));
    }
    mask |= pii_bit(*entity);
  }
  return Status::ok();
}

Status read_actions(const StageParams& p, PiiRedactConfig& config) {
  auto global = parse_action(p, "action", p.get_string("action"));
  if (!global.is_ok()) return global.status();
  config.actions.fill(*global);
  if (!p.has("actions")) return Status::ok();
  for (const std::string& entry : p.get_string_list("actions")) {
    size_t colon = entry.find(':');
    if (colon == std::string::npos) {
      return p.error("actions", "'" + entry + "' is not ENTITY:action");
    }
    auto entity = pii_entity_from_name(entry.substr(0, colon));
    if (!entity) return p.error("actions", "unknown entity '" + entry.substr(0, colon) + "'");
    auto action = parse_action(p, "actions", std::string_view(entry).substr(colon + 1));
    if (!action.is_ok()) return action.status();
    config.actions[static_cast<size_t>(*entity)] = *action;
  }
  return Status::ok();
}

// The named-entity model of `ner_model`, with its batching and device.
Status read_ner(const StageParams& p, PiiRedactConfig& config) {
  const std::string& folder = p.get_string("ner_model");
  if (folder.empty()) {
    if (p.has("ner_entities") && !p.get_string_list("ner_entities").empty()) {
      return p.error("ner_entities", "needs ner_model, the model that finds them");
    }
    return Status::ok();
  }
  PiiEntityMask entities = kNerPiiEntities;
  WINNOW_RETURN_IF_ERROR(read_entity_list(p, "ner_entities", kNerPiiEntities, entities));
  TokenClassifierOptions options;
  const int64_t max_tokens = p.get_int("ner_max_tokens");
  if (max_tokens < 0 || max_tokens == 1 || max_tokens == 2) {
    return p.error("ner_max_tokens", "must be 0 (the model's) or at least 3");
  }
  options.max_tokens = static_cast<size_t>(max_tokens);
  const int64_t batch_tokens = p.get_int("ner_batch_tokens");
  const int64_t batch_size = p.get_int("ner_batch_size");
  if (batch_tokens < 1) return p.error("ner_batch_tokens", "must be at least 1");
  if (batch_size < 1) return p.error("ner_batch_size", "must be at least 1");
  options.batching.max_batch_tokens = static_cast<size_t>(batch_tokens);
  options.batching.max_batch_size = static_cast<size_t>(batch_size);
  if (auto error = read_onnx_device(p, options.session)) return *error;
  auto model = TokenClassifier::load(folder, options);
  if (!model.is_ok()) return p.error("ner_model", model.status().message());
  std::shared_ptr<const TokenClassifier> shared = std::move(model).value();
  config.ner = std::make_shared<const NerTagger>(std::move(shared), entities);
  return Status::ok();
}

std::vector<ParamSpec> pii_redact_params() {
  std::vector<ParamSpec> params = {
      {"entities", ParamType::kStringList, "",
       "rule-detector entities to find, among EMAIL_ADDRESS, PHONE_NUMBER, IP_ADDRESS, "
       "CREDIT_CARD, IBAN_CODE, US_SSN, URL_CREDENTIALS (default: all)"},
      {"action", ParamType::kString, "redact",
       "what becomes of each entity found: redact (a typed placeholder such as "
       "<EMAIL_ADDRESS>), replace (a fake of the same kind from a seeded hash of the "
       "original), hash (16 hex digits of a seeded hash) or drop (the document, reason pii, "
       "score the number of entities)"},
      {"actions", ParamType::kStringList, "",
       "per-entity actions overriding `action`, as ENTITY:action ('CREDIT_CARD:drop', "
       "'PERSON:replace')"},
      {"seed", ParamType::kInt, "", "seed of replace and hash (default: the pipeline seed)"},
      {"annotate", ParamType::kBool, "false",
       "record the number of entities found in a field named after the stage"},
      {"ner_model", ParamType::kString, "",
       "a token-classification model folder (model.onnx with a logits output [batch, sequence, "
       "labels], tokenizer.json, config.json with BIO id2label such as O, B-PER, I-PER, B-LOC, "
       "B-ORG) that finds PERSON, LOCATION and ORGANIZATION; words are tokenised alone and each "
       "takes its first sub-token's label; a rule detector's span wins over an overlapping "
       "model span (default: none, rule detectors alone)"},
      {"ner_entities", ParamType::kStringList, "",
       "the model's entities to find, among PERSON, LOCATION, ORGANIZATION (default: all)"},
      {"ner_max_tokens", ParamType::kInt, "0",
       "tokens per model window, special tokens included; longer texts run as several windows "
       "cut at word boundaries (0: tokenizer.json's truncation, else config.json's "
       "max_position_embeddings)"},
      {"ner_batch_tokens", ParamType::kInt, "8192",
       "windows are sorted by length and batched under rows x longest row tokens"},
      {"ner_batch_size", ParamType::kInt, "64", "windows per model batch at most"},
  };
  for (ParamSpec& p : onnx_device_params("with ner_model: ")) params.push_back(std::move(p));
  return params;
}

}  // namespace

StageSpec pii_redact_spec() {
  StageSpec spec{
      "pii_redact",
      "Finds personal data (e-mail addresses, phone numbers, IP addresses, Luhn-valid card "
      "numbers, mod-97-valid IBANs, US SSNs, URLs with credentials) with rule-based detectors, "
      "and with ner_model persons, locations and organisations with a token-classification "
      "model, and redacts it (<ENTITY>), replaces it with a stable fake, hashes it, or drops "
      "the document.",
      pii_redact_params(),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        PiiRedactConfig config;
        WINNOW_RETURN_IF_ERROR(read_entity_list(p, "entities", kRulePiiEntities, config.entities));
        WINNOW_RETURN_IF_ERROR(read_actions(p, config));
        config.seed = p.has("seed") ? static_cast<uint64_t>(p.get_int("seed")) : context.seed();
        config.annotate = p.get_bool("annotate");
        WINNOW_RETURN_IF_ERROR(read_ner(p, config));
        return std::unique_ptr<Stage>(new PiiRedactStage(config, context));
      },
  };
  spec.resources_for = onnx_stage_resources;
  return spec;
}

}  // namespace winnow
