#include "io/json_transport_type.h"

#include <charconv>

namespace winnow {

namespace {

// DECIMAL(p, s) with p digits at most goes through a double exactly: 15 significant digits
// survive any double round trip.
constexpr int kExactDecimalDigits = 15;

bool travels_as_text(std::string_view leaf) {
  if (leaf == "BLOB" || leaf == "BIT" || leaf == "BITSTRING" || leaf == "HUGEINT" ||
      leaf == "UHUGEINT" || leaf == "BIGNUM" || leaf == "VARINT") {
    return true;
  }
  constexpr std::string_view kDecimal = "DECIMAL(";
  if (leaf.starts_with(kDecimal)) {
    int precision = 0;
    const char* begin = leaf.data() + kDecimal.size();
    auto [end, error] = std::from_chars(begin, leaf.data() + leaf.size(), precision);
    return error != std::errc() || precision > kExactDecimalDigits;
  }
  return false;
}

// A recursive-descent reader of DuckDB's type names as DESCRIBE prints them, rewriting the
// leaves that travel as text; false when the name is not one it follows.
class TypeRewriter {
 public:
  explicit TypeRewriter(std::string_view type) : in_(type) {}

  bool rewrite(std::string& out) { return type(out) && at_ == in_.size(); }

 private:
  bool type(std::string& out) {
    std::string_view rest = in_.substr(at_);
    if (rest.starts_with("STRUCT(") || rest.starts_with("UNION(")) {
      size_t open = rest.find('(');
      out.append(rest.substr(0, open + 1));
      at_ += open + 1;
      if (!fields(out)) return false;
    } else if (rest.starts_with("MAP(")) {
      out += "MAP(";
      at_ += 4;
      if (!type(out) || !expect(", ", out) || !type(out) || !expect(")", out)) return false;
    } else if (!leaf(out)) {
      return false;
    }
    // Lists and fixed-size arrays: T[], T[3], T[][2].
    while (at_ < in_.size() && in_[at_] == '[') {
      size_t close = in_.find(']', at_);
      if (close == std::string_view::npos) return false;
      out.append(in_.substr(at_, close + 1 - at_));
      at_ = close + 1;
    }
    return true;
  }

  // "name TYPE, name TYPE)": names bare or in double quotes ("" for a quote inside).
  bool fields(std::string& out) {
    for (;;) {
      size_t start = at_;
      if (at_ < in_.size() && in_[at_] == '"') {
        for (++at_; at_ < in_.size(); ++at_) {
          if (in_[at_] != '"') continue;
          if (at_ + 1 < in_.size() && in_[at_ + 1] == '"') {
            ++at_;
            continue;
          }
          break;
        }
        if (at_ >= in_.size()) return false;
        ++at_;
      } else {
        while (at_ < in_.size() && in_[at_] != ' ' && in_[at_] != ',' && in_[at_] != '(' &&
               in_[at_] != ')') {
          ++at_;
        }
      }
      // A field without a name (an unnamed struct) has no space after its first word.
      if (at_ == start || at_ >= in_.size() || in_[at_] != ' ') return false;
      ++at_;
      out.append(in_.substr(start, at_ - start));
      if (!type(out)) return false;
      if (expect(")", out)) return true;
      if (!expect(", ", out)) return false;
    }
  }

  // Up to a ',', ')' or '[' outside parentheses and quotes: "DECIMAL(38,10)", "ENUM('a', 'b')",
  // "TIMESTAMP WITH TIME ZONE".
  bool leaf(std::string& out) {
    size_t start = at_;
    int depth = 0;
    while (at_ < in_.size()) {
      char c = in_[at_];
      if (c == '\'') {
        // A quoted ENUM value; '' is a quote inside.
        for (++at_; at_ < in_.size(); ++at_) {
          if (in_[at_] != '\'') continue;
          if (at_ + 1 < in_.size() && in_[at_ + 1] == '\'') {
            ++at_;
            continue;
          }
          break;
        }
        if (at_ >= in_.size()) return false;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')') {
        if (depth == 0) break;
        --depth;
      } else if (depth == 0 && (c == ',' || c == '[')) {
        break;
      }
      ++at_;
    }
    std::string_view name = in_.substr(start, at_ - start);
    if (name.empty() || depth != 0) return false;
    out.append(travels_as_text(name) ? std::string_view("VARCHAR") : name);
    return true;
  }

  bool expect(std::string_view token, std::string& out) {
    if (in_.substr(at_, token.size()) != token) return false;
    out.append(token);
    at_ += token.size();
    return true;
  }

  std::string_view in_;
  size_t at_ = 0;
};

}  // namespace

std::optional<std::string> json_transport_type(std::string_view duckdb_type) {
  std::string out;
  if (!TypeRewriter(duckdb_type).rewrite(out)) return std::nullopt;
  return out;
}

}  // namespace winnow
