// The rule-based PII detectors: each kind's positives and near-misses, with validity judged
// independently by pii_oracle.py (Python's ipaddress and email.utils, Luhn, IBAN mod 97, the
// SSA's ranges); precision and recall on a labelled corpus of real text (the GPL-3 licence
// Debian ships) with planted entities and near-misses; fakes that stay valid and stable.
#include "text/pii_detectors.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "test_support.h"
#include "text/pii_fakes.h"

namespace winnow::testing {
namespace {

using Labelled = std::pair<std::string, std::string>;  // entity name, value

// The oracle's verdict for each (kind, value).
std::map<Labelled, bool> oracle(const std::vector<Labelled>& items) {
  TempDir dir;
  std::string input;
  for (const auto& [kind, value] : items) input += kind + "\t" + value + "\n";
  write_file(dir.file("in.tsv"), input);
  std::string output;
  int rc = run_command("python3 " + kSource + "/tests/text/pii_oracle.py < " +
                           dir.file("in.tsv"),
                       &output);
  EXPECT_EQ(rc, 0) << output;
  std::map<Labelled, bool> verdicts;
  for (const std::string& line : split_lines(output)) {
    size_t a = line.find('\t'), b = line.rfind('\t');
    if (a == std::string::npos || a == b) continue;
    verdicts[{line.substr(0, a), line.substr(a + 1, b - a - 1)}] = line.substr(b + 1) == "1";
  }
  EXPECT_EQ(verdicts.size(), std::set<Labelled>(items.begin(), items.end()).size()) << output;
  return verdicts;
}

std::vector<Labelled> detect(std::string_view text, PiiEntityMask mask = kAllPiiEntities) {
  std::vector<PiiSpan> spans;
  find_pii(text, mask, spans);
  std::vector<Labelled> out;
  for (const PiiSpan& s : spans) {
    out.emplace_back(std::string(pii_entity_name(s.entity)),
                     std::string(text.substr(s.begin, s.end - s.begin)));
  }
  return out;
}

// Entities planted in the corpus, each found whole by the detectors.
const std::vector<Labelled> kPositives = {
    {"EMAIL_ADDRESS", "john.doe@example.com"},
    {"EMAIL_ADDRESS", "a.b-c+tag@mail.co.uk"},
    {"EMAIL_ADDRESS", "x_y%z@sub.domain.org"},
    {"EMAIL_ADDRESS", "ops@corp.io"},
    {"PHONE_NUMBER", "(202) 555-0143"},
    {"PHONE_NUMBER", "202-555-0188"},
    {"PHONE_NUMBER", "202.555.0172"},
    {"PHONE_NUMBER", "1-800-555-0199"},
    {"PHONE_NUMBER", "+1 202 555 0143"},
    {"PHONE_NUMBER", "+1 (415) 555-2671"},
    {"PHONE_NUMBER", "+44 20 7946 0958"},
    {"PHONE_NUMBER", "+44 (0)20 7946 0958"},
    {"PHONE_NUMBER", "+33 1 23 45 67 89"},
    {"PHONE_NUMBER", "+49 30 901820"},
    {"PHONE_NUMBER", "+4915112345678"},
    {"PHONE_NUMBER", "020 7946 0958"},
    {"PHONE_NUMBER", "06 12 34 56 78"},
    {"PHONE_NUMBER", "030/901820"},
    {"IP_ADDRESS", "192.168.1.20"},
    {"IP_ADDRESS", "10.0.0.1"},
    {"IP_ADDRESS", "8.8.8.8"},
    {"IP_ADDRESS", "2001:db8:85a3::8a2e:370:7334"},
    {"IP_ADDRESS", "fe80::1ff:fe23:4567:890a"},
    {"IP_ADDRESS", "::ffff:192.0.2.128"},
    {"IP_ADDRESS", "2001:0db8:0000:0000:0000:ff00:0042:8329"},
    {"CREDIT_CARD", "4111 1111 1111 1111"},
    {"CREDIT_CARD", "4111-1111-1111-1111"},
    {"CREDIT_CARD", "5500005555555559"},
    {"CREDIT_CARD", "378282246310005"},
    {"CREDIT_CARD", "3782 822463 10005"},
    {"CREDIT_CARD", "6011111111111117"},
    {"CREDIT_CARD", "3530111333300000"},
    {"CREDIT_CARD", "30569309025904"},
    {"CREDIT_CARD", "2223000048400011"},
    {"IBAN_CODE", "GB82 WEST 1234 5698 7654 32"},
    {"IBAN_CODE", "GB82WEST12345698765432"},
    {"IBAN_CODE", "DE89370400440532013000"},
    {"IBAN_CODE", "FR14 2004 1010 0505 0001 3M02 606"},
    {"IBAN_CODE", "NL91ABNA0417164300"},
    {"IBAN_CODE", "BE71 0961 2345 6769"},
    {"IBAN_CODE", "CH9300762011623852957"},
    {"IBAN_CODE", "ES9121000418450200051332"},
    {"US_SSN", "078-05-1120"},
    {"US_SSN", "123-45-6789"},
    {"US_SSN", "536-90-4399"},
    {"URL_CREDENTIALS", "https://bob:s3cret@git.example.com"},
    {"URL_CREDENTIALS", "ftp://admin:hunter2@10.1.2.3:2121"},
    {"URL_CREDENTIALS", "postgres://app:p%40ss@db.internal:5432"},
};

// Look-alikes that must not be taken, with the kind each imitates.
const std::vector<Labelled> kNearMisses = {
    {"IP_ADDRESS", "1.2.3.4.5"},
    {"IP_ADDRESS", "10.0.0.256"},
    {"IP_ADDRESS", "256.1.1.1"},
    {"IP_ADDRESS", "01.02.03.04"},
    {"IP_ADDRESS", "::1"},
    {"IP_ADDRESS", "12:30:45"},
    {"IP_ADDRESS", "00:1a:2b:3c:4d:5e"},
    {"CREDIT_CARD", "4111 1111 1111 1112"},
    {"CREDIT_CARD", "5500 0055 5555 5558"},
    {"CREDIT_CARD", "4000123456789011"},
    {"IBAN_CODE", "GB82 WEST 1234 5698 7654 33"},
    {"IBAN_CODE", "DE89370400440532013001"},
    {"IBAN_CODE", "DE8937040044053201300"},
    {"US_SSN", "000-12-3456"},
    {"US_SSN", "666-12-3456"},
    {"US_SSN", "900-12-3456"},
    {"US_SSN", "123-00-4567"},
    {"US_SSN", "123-45-0000"},
    {"EMAIL_ADDRESS", "user@localhost"},
    {"EMAIL_ADDRESS", "name@123.45"},
};
// Near-misses the oracle has no rule for (dates, versions, ISBNs, order numbers, code).
const std::vector<std::string> kOtherNearMisses = {
    "v1.2.3.4",       "2024-01-15",        "15.01.2024",     "01/15/2024",
    "2024/01/15",     "10:30",             "978-3-16-148410-0", "0-306-40615-2",
    "9783161484100",  "123456789012345678", "7000000000000000", "2025550143",
    "555-0143",       "a[1::2]",           "std::vector<int>", "1,234,567.89",
    "3.14159",        "@mention",          "https://git@github.com/x", "XX89370400440532013000",
    "Order #100234987612", "01.02.2024 10:30", "build 20240115093000",
    // Seen in real text (manual pages, Python's documentation): ZIP+4 codes, /proc tables,
    // signed numbers, hex dumps, number sequences.
    "Boston, MA 02111-1307, USA", "r-xp 00000000 08:06 1083555 /lib/x.so", "(-32768000, +32768000)",
    "0000000: 2e54 4820 5858 4420 3120 2241 .TH", "233 377 610 987 1597",
    "0140 25 70 32 25 7b 33 32", "00000000:0801 00000000:0000 0A",
    "zlib version 1.2.0.1", "novas-3.1.1.3.tar.gz", "Gecko Firefox/2.0.0.11", "on 4 Jan 2004::",
    "section 6.4.4.2 of C99",
};

std::string join(const std::vector<Labelled>& items) {
  std::string s;
  for (const auto& [k, v] : items) s += k + " " + v + "; ";
  return s;
}

TEST(PiiDetectors, TheOracleAgreesWithTheLabels) {
  std::vector<Labelled> checkable;
  for (const auto& item : kPositives) {
    if (item.first != "PHONE_NUMBER" && item.first != "URL_CREDENTIALS") checkable.push_back(item);
  }
  for (const auto& item : kNearMisses) checkable.push_back(item);
  auto verdicts = oracle(checkable);
  for (const auto& item : kPositives) {
    if (verdicts.count(item)) {
      EXPECT_TRUE(verdicts[item]) << item.first << " " << item.second;
    }
  }
  for (const auto& item : kNearMisses) {
    EXPECT_FALSE(verdicts[item]) << item.first << " " << item.second;
  }
}

TEST(PiiDetectors, EachPositiveIsFoundWholeInASentence) {
  for (const auto& [kind, value] : kPositives) {
    std::string text = "See " + value + " for details.";
    auto found = detect(text);
    ASSERT_EQ(found.size(), 1u) << text << " -> " << join(found);
    EXPECT_EQ(found[0].first, kind) << text;
    EXPECT_EQ(found[0].second, value) << text;
    // Alone, at the start and end of the text, and only when its kind is asked for.
    EXPECT_EQ(detect(value), found) << value;
    PiiEntity entity = *pii_entity_from_name(kind);
    EXPECT_TRUE(detect(text, kAllPiiEntities & ~pii_bit(entity)).size() <= 1u);
    for (const auto& [other, v] : detect(text, kAllPiiEntities & ~pii_bit(entity))) {
      EXPECT_NE(v, value) << kind << " found as " << other;
    }
  }
}

TEST(PiiDetectors, NearMissesAreNotTaken) {
  for (const auto& [kind, value] : kNearMisses) {
    std::string text = "Value " + value + " here.";
    EXPECT_THAT(detect(text), ::testing::IsEmpty()) << text;
  }
  for (const std::string& value : kOtherNearMisses) {
    std::string text = "Value " + value + " here.";
    EXPECT_THAT(detect(text), ::testing::IsEmpty()) << text << " -> " << join(detect(text));
  }
}

TEST(PiiDetectors, LuhnAgreesWithPythonOnRandomNumbers) {
  std::mt19937_64 rng(7);
  std::vector<Labelled> items;
  for (int k = 0; k < 300; ++k) {
    std::string digits = std::to_string(rng() % 9 + 1);
    int length = 12 + static_cast<int>(rng() % 8);
    while (static_cast<int>(digits.size()) < length) digits += char('0' + rng() % 10);
    items.push_back({"LUHN", digits});
    // And its completed form, which must pass.
    items.push_back({"LUHN", digits + luhn_check_digit(digits)});
  }
  auto verdicts = oracle(items);
  for (const auto& item : items) {
    EXPECT_EQ(luhn_valid(item.second), verdicts[item]) << item.second;
  }
}

TEST(PiiDetectors, IpAddressesAsPythonReadsThem) {
  const std::vector<std::string> candidates = {
      "0.0.0.0", "255.255.255.255", "1.2.3.4", "192.168.001.1", "300.1.1.1", "1.2.3",
      "127.0.0.1", "2001:db8::1", "2001:db8::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7::", "1::2::3", "fe80::", "12345::1", "::ffff:1.2.3.4", "2001:db8:0:0:1:0:0:1",
      "2001:db8::g", "dead:beef::cafe", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4",
      "::ffff:1.2.3.256", "2001:DB8::8A2E:370:7334", "2004::", "2001:db8::", "abcd:ef01:2345:6789:abcd:ef01:2345:6789",
  };
  std::vector<Labelled> items;
  for (const auto& c : candidates) items.push_back({"IP_ADDRESS", c});
  auto verdicts = oracle(items);
  for (const auto& item : items) {
    auto found = detect("host " + item.second + " answered", pii_bit(PiiEntity::kIpAddress));
    bool whole = found.size() == 1 && found[0].second == item.second;
    EXPECT_EQ(whole, verdicts[item]) << item.second << " -> " << join(found);
    if (!verdicts[item]) {
      EXPECT_THAT(found, ::testing::IsEmpty()) << item.second;
    }
  }
}

TEST(PiiDetectors, IbanChecksAndCountryLengths) {
  EXPECT_EQ(iban_country_length("DE"), 22);
  EXPECT_EQ(iban_country_length("NO"), 15);
  EXPECT_EQ(iban_country_length("US"), 0);
  // Every two-digit check in front of a BBAN: exactly one passes, the one Python computes.
  std::vector<Labelled> items;
  for (int check = 0; check < 100; ++check) {
    char digits[3] = {char('0' + check / 10), char('0' + check % 10), 0};
    items.push_back({"IBAN_CODE", std::string("DE") + digits + "370400440532013000"});
    items.push_back({"IBAN_CODE", std::string("NO") + digits + "86011117947"});
  }
  auto verdicts = oracle(items);
  int valid = 0;
  for (const auto& item : items) {
    EXPECT_EQ(iban_checksum_valid(item.second), verdicts[item]) << item.second;
    valid += verdicts[item];
  }
  EXPECT_EQ(valid, 2);
}

TEST(PiiDetectors, SsnRangesAsTheSsaRulesSay) {
  std::vector<Labelled> items;
  for (int area : {0, 1, 665, 666, 667, 899, 900, 999}) {
    for (int group : {0, 1, 99}) {
      for (int serial : {0, 1, 9999}) {
        char buffer[16];
        std::snprintf(buffer, sizeof buffer, "%03d-%02d-%04d", area, group, serial);
        items.push_back({"US_SSN", buffer});
      }
    }
  }
  auto verdicts = oracle(items);
  for (const auto& item : items) {
    auto found = detect("SSN " + item.second + ".", pii_bit(PiiEntity::kUsSsn));
    EXPECT_EQ(found.size() == 1, verdicts[item]) << item.second;
  }
}

TEST(PiiDetectors, OverlapsGoToTheLongestThenTheEarliest) {
  // The URL's userinfo looks like an e-mail, its host like an IP: the whole URL wins.
  EXPECT_EQ(detect("at ftp://admin:pw@10.1.2.3:21 now"),
            (std::vector<Labelled>{{"URL_CREDENTIALS", "ftp://admin:pw@10.1.2.3:21"}}));
  // "+1 202-555-0143" holds the national "202-555-0143": the international form is longer.
  EXPECT_EQ(detect("call +1 202-555-0143"),
            (std::vector<Labelled>{{"PHONE_NUMBER", "+1 202-555-0143"}}));
  // Adjacent entities stay apart.
  EXPECT_EQ(detect("a@b.com,c@d.org"),
            (std::vector<Labelled>{{"EMAIL_ADDRESS", "a@b.com"}, {"EMAIL_ADDRESS", "c@d.org"}}));
}

// Real prose (the GPL-3 text) with a sentence holding a planted entity or near-miss after
// every paragraph.
TEST(PiiDetectors, PrecisionAndRecallOnAPlantedCorpus) {
  std::string licence = read_file("/usr/share/common-licenses/GPL-3");
  ASSERT_GT(licence.size(), 30000u);
  // The licence alone holds no personal data.
  EXPECT_THAT(detect(licence), ::testing::IsEmpty()) << join(detect(licence));
  const std::vector<std::string> templates = {
      "Questions about this may be sent to {}.", "For help, reach the office ({}) on weekdays.",
      "The value {} was recorded in the log.", "Write down {}, then continue reading.",
  };
  std::vector<std::string> planted;
  std::vector<Labelled> expected;
  for (const auto& item : kPositives) {
    planted.push_back(item.second);
    expected.push_back(item);
  }
  for (const auto& item : kNearMisses) planted.push_back(item.second);
  for (const auto& value : kOtherNearMisses) planted.push_back(value);
  std::string corpus;
  size_t next = 0, paragraph_start = 0;
  while (paragraph_start < licence.size()) {
    size_t end = licence.find("\n\n", paragraph_start);
    if (end == std::string::npos) end = licence.size();
    corpus.append(licence, paragraph_start, end - paragraph_start);
    if (next < planted.size()) {
      std::string sentence = templates[next % templates.size()];
      sentence.replace(sentence.find("{}"), 2, planted[next]);
      corpus += " " + sentence;
      ++next;
    }
    corpus += "\n\n";
    paragraph_start = end + 2;
  }
  ASSERT_EQ(next, planted.size()) << "the licence has too few paragraphs";
  auto found = detect(corpus);
  std::multiset<Labelled> want(expected.begin(), expected.end());
  std::multiset<Labelled> got(found.begin(), found.end());
  size_t true_positives = 0;
  for (const auto& item : got) true_positives += want.count(item) > 0;
  double precision = got.empty() ? 0 : double(true_positives) / got.size();
  double recall = double(true_positives) / want.size();
  EXPECT_EQ(precision, 1.0) << join(found);
  EXPECT_EQ(recall, 1.0) << join(found);
  EXPECT_EQ(got, want);
}

TEST(PiiDetectors, FakesAreValidStableAndSeeded) {
  std::vector<Labelled> checkable;
  for (const auto& [kind, value] : kPositives) {
    PiiEntity entity = *pii_entity_from_name(kind);
    std::string fake, again, other;
    append_pii_fake(entity, value, 42, fake);
    append_pii_fake(entity, value, 42, again);
    append_pii_fake(entity, value, 43, other);
    EXPECT_EQ(fake, again) << value;
    EXPECT_NE(fake, other) << value;
    EXPECT_NE(fake, value);
    // The detectors take the fake for the same kind, whole.
    auto found = detect("See " + fake + " for details.");
    ASSERT_EQ(found.size(), 1u) << value << " -> " << fake;
    EXPECT_EQ(found[0], (Labelled{kind, fake})) << value;
    if (kind != "PHONE_NUMBER" && kind != "URL_CREDENTIALS") checkable.push_back({kind, fake});
  }
  for (const auto& [item, valid] : oracle(checkable)) {
    EXPECT_TRUE(valid) << item.first << " " << item.second;
  }
  // A phone keeps its layout, country code and trunk; its other digits change.
  std::string phone;
  append_pii_fake(PiiEntity::kPhoneNumber, "+44 (0)20 7946 0958", 42, phone);
  EXPECT_THAT(phone, ::testing::MatchesRegex(R"(\+44 \(0\)[0-9]{2} [0-9]{4} [0-9]{4})"));
  std::string h1, h2, h3;
  append_pii_hash("john.doe@example.com", 1, h1);
  append_pii_hash("john.doe@example.com", 1, h2);
  append_pii_hash("john.doe@example.com", 2, h3);
  EXPECT_EQ(h1, h2);
  EXPECT_NE(h1, h3);
  EXPECT_THAT(h1, ::testing::MatchesRegex("[0-9a-f]{16}"));
}

TEST(PiiDetectors, EntityNames) {
  for (size_t k = 0; k < kPiiEntityCount; ++k) {
    auto entity = static_cast<PiiEntity>(k);
    EXPECT_EQ(pii_entity_from_name(pii_entity_name(entity)), entity);
  }
  // The model's entities have names too, after the scanners'; spaCy's label names do not.
  EXPECT_EQ(pii_entity_from_name("PERSON"), PiiEntity::kPerson);
  EXPECT_EQ(pii_entity_from_name("ORGANIZATION"), PiiEntity::kOrganization);
  EXPECT_FALSE(pii_entity_from_name("PER").has_value());
  EXPECT_FALSE(pii_entity_from_name("EMAIL").has_value());
  EXPECT_EQ(kRulePiiEntities | kNerPiiEntities, kAllPiiEntities);
  EXPECT_EQ(kRulePiiEntities & kNerPiiEntities, 0u);
}

}  // namespace
}  // namespace winnow::testing
