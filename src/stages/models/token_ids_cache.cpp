#include "stages/models/token_ids_cache.h"

#include <cstdio>

#include "core/utf8.h"

namespace winnow {

void Tokenization::encode(std::string_view text, std::vector<int64_t>& ids) const {
  ids.clear();
  if (max_chars > 0) text = code_point_prefix(text, max_chars);
  tokenizer->encode(text, ids, max_tokens);
}

void TokenIdsCache::text_changed(size_t row) {
  for (Rows& rows : tokenizations_) {
    if (row < rows.valid.size()) rows.valid[row] = 0;
  }
}

void TokenIdsCache::store(const Tokenization& how, size_t row, std::vector<int64_t> ids) {
  Rows* rows = nullptr;
  for (Rows& r : tokenizations_) {
    if (r.how == how) rows = &r;
  }
  if (rows == nullptr) rows = &tokenizations_.emplace_back(Rows{how, {}, {}});
  if (rows->ids.size() <= row) {
    rows->ids.resize(row + 1);
    rows->valid.resize(row + 1, 0);
  }
  rows->ids[row] = std::move(ids);
  rows->valid[row] = 1;
}

const std::vector<int64_t>* TokenIdsCache::find(const Tokenization& how, size_t row) const {
  for (const Rows& rows : tokenizations_) {
    if (rows.how == how && row < rows.valid.size() && rows.valid[row]) return &rows.ids[row];
  }
  return nullptr;
}

bool TokenIdsCache::holds_other_than(const Tokenization& how) const {
  for (const Rows& rows : tokenizations_) {
    if (!(rows.how == how)) return true;
  }
  return false;
}

KeptRowTokens kept_row_tokens(const DocBatch& batch, const Tokenization& how) {
  KeptRowTokens out;
  const TokenIdsCache* cache = batch.find_cache<TokenIdsCache>();
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch.kept(i)) out.rows.push_back(i);
  }
  // Sized once, so the spans into it stay valid.
  out.owned.resize(out.rows.size());
  out.ids.resize(out.rows.size());
  for (size_t k = 0; k < out.rows.size(); ++k) {
    const std::vector<int64_t>* stored = cache ? cache->find(how, out.rows[k]) : nullptr;
    if (stored != nullptr) {
      out.ids[k] = *stored;
      ++out.from_cache;
    } else {
      how.encode(batch.text(out.rows[k]), out.owned[k]);
      out.ids[k] = out.owned[k];
    }
  }
  out.other_tokenization = cache != nullptr && cache->holds_other_than(how);
  return out;
}

KeptRowTokens ModelStageTokens::of(const DocBatch& batch) const {
  KeptRowTokens tokens = kept_row_tokens(batch, how_);
  if (tokens.other_tokenization && !warned_.exchange(true)) {
    std::fprintf(stderr,
                 "winnow: %s: a tokenize stage before it tokenised with another model folder, "
                 "max_tokens or max_chars; %s tokenises its texts itself\n",
                 stage_name_.c_str(), stage_name_.c_str());
  }
  return tokens;
}

}  // namespace winnow
