// pii_redact: finds personal data in each kept document (text/pii_detectors.h) and redacts it
// with a typed placeholder, replaces it with a stable fake of its kind, replaces it with a
// seeded hash, or drops the document; the action is chosen per entity. NeMo Curator's
// PiiModifier (Presidio) does this with regex recognizers and a spaCy model; the rule-based
// detectors here are hand-written scanners (one pass, no regex engine).
#include <array>
#include <string>
#include <vector>

#include "core/hash.h"
#include "stages/builtin_stages.h"
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
  return p.error(key, "the action must be redact, replace, hash or drop, not '" +
                          std::string(name) + "'");
}

struct PiiRedactConfig {
  PiiEntityMask entities = kAllPiiEntities;
  std::array<PiiAction, kPiiEntityCount> actions{};
  uint64_t seed = 0;
  bool annotate = false;
};

class PiiRedactStage final : public Stage {
 public:
  PiiRedactStage(PiiRedactConfig config, StageContext& context)
      : config_(config),
        column_(context.stage_name()),
        pii_(context.declare_reason("pii")) {
    for (PiiAction action : config_.actions) any_drop_ |= action == PiiAction::kDrop;
    // stats.json's counts of this step: "<stage>/<ENTITY>" entities found, and the documents
    // whose text was rewritten.
    for (size_t k = 0; k < kPiiEntityCount; ++k) {
      count_keys_[k] = context.stage_name() + "/" +
                       std::string(pii_entity_name(static_cast<PiiEntity>(k)));
    }
    changed_key_ = context.stage_name() + "/documents_changed";
  }

  Status process(DocBatch& batch) override {
    AnnotationColumn* column =
        config_.annotate ? &batch.annotation(column_, AnnotationType::kInt) : nullptr;
    std::vector<PiiSpan> spans;
    std::string rewritten;
    std::array<uint64_t, kPiiEntityCount> found{};
    uint64_t changed = 0;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      std::string_view text = batch.text(i);
      find_pii(text, config_.entities, spans);
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
      rewritten.clear();
      size_t from = 0;
      for (const PiiSpan& span : spans) {
        rewritten.append(text.substr(from, span.begin - from));
        std::string_view original = text.substr(span.begin, span.end - span.begin);
        switch (action_of(span.entity)) {
          case PiiAction::kRedact:
            rewritten += '<';
            rewritten += pii_entity_name(span.entity);
            rewritten += '>';
            break;
          case PiiAction::kReplace:
            append_pii_fake(span.entity, original, config_.seed, rewritten);
            break;
          case PiiAction::kHash:
            append_pii_hash(original, config_.seed, rewritten);
            break;
          case PiiAction::kDrop:
            break;  // handled above
        }
        from = span.end;
      }
      rewritten.append(text.substr(from));
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

  PiiRedactConfig config_;
  std::string column_;
  ReasonId pii_;
  bool any_drop_ = false;
  std::array<std::string, kPiiEntityCount> count_keys_;
  std::string changed_key_;
};

}  // namespace

StageSpec pii_redact_spec() {
  return {
      "pii_redact",
      "Finds personal data (e-mail addresses, phone numbers, IP addresses, Luhn-valid card "
      "numbers, mod-97-valid IBANs, US SSNs, URLs with credentials) with rule-based detectors "
      "and redacts it (<ENTITY>), replaces it with a stable fake, hashes it, or drops the "
      "document.",
      {
          {"entities", ParamType::kStringList, "",
           "entities to find, among EMAIL_ADDRESS, PHONE_NUMBER, IP_ADDRESS, CREDIT_CARD, "
           "IBAN_CODE, US_SSN, URL_CREDENTIALS (default: all)"},
          {"action", ParamType::kString, "redact",
           "what becomes of each entity found: redact (a typed placeholder such as "
           "<EMAIL_ADDRESS>), replace (a fake of the same kind from a seeded hash of the "
           "original), hash (16 hex digits of a seeded hash) or drop (the document, reason pii, "
           "score the number of entities)"},
          {"actions", ParamType::kStringList, "",
           "per-entity actions overriding `action`, as ENTITY:action ('CREDIT_CARD:drop')"},
          {"seed", ParamType::kInt, "", "seed of replace and hash (default: the pipeline seed)"},
          {"annotate", ParamType::kBool, "false",
           "record the number of entities found in a field named after the stage"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        PiiRedactConfig config;
        if (p.has("entities") && !p.get_string_list("entities").empty()) {
          config.entities = 0;
          for (const std::string& name : p.get_string_list("entities")) {
            auto entity = pii_entity_from_name(name);
            if (!entity) return p.error("entities", "unknown entity '" + name + "'");
            config.entities |= pii_bit(*entity);
          }
        }
        auto global = parse_action(p, "action", p.get_string("action"));
        if (!global.is_ok()) return global.status();
        config.actions.fill(*global);
        if (p.has("actions")) {
          for (const std::string& entry : p.get_string_list("actions")) {
            size_t colon = entry.find(':');
            if (colon == std::string::npos) {
              return p.error("actions", "'" + entry + "' is not ENTITY:action");
            }
            auto entity = pii_entity_from_name(entry.substr(0, colon));
            if (!entity) {
              return p.error("actions", "unknown entity '" + entry.substr(0, colon) + "'");
            }
            auto action = parse_action(p, "actions", std::string_view(entry).substr(colon + 1));
            if (!action.is_ok()) return action.status();
            config.actions[static_cast<size_t>(*entity)] = *action;
          }
        }
        config.seed = p.has("seed") ? static_cast<uint64_t>(p.get_int("seed")) : context.seed();
        config.annotate = p.get_bool("annotate");
        return std::unique_ptr<Stage>(new PiiRedactStage(config, context));
      },
  };
}

}  // namespace winnow
