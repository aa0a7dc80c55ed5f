#include "text/html_parser_backends.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace winnow::html_backends {
namespace {

class Recorder final : public HtmlVisitor {
 public:
  std::string events;
  bool start(const HtmlElement& e) override {
    events += "<" + std::string(e.tag()) + ">";
    return e.tag() != "skip";
  }
  void end(const HtmlElement& e) override { events += "</" + std::string(e.tag()) + ">"; }
  void text(std::string_view t) override { events += "[" + std::string(t) + "]"; }
};

TEST(HtmlEventSink, JoinsTextSkipsSubtreesAndMatchesEndTagsByName) {
  Recorder r;
  HtmlEventSink sink(r, 1000);
  std::string page = "abc";
  sink.start("div", HtmlElement::from_scanner("div", nullptr, 0));
  sink.text(std::string_view(page).substr(0, 1));  // a view: kept until the run ends
  sink.text_buffer() += "+";
  sink.text(std::string_view(page).substr(1, 2));
  sink.start("skip", HtmlElement::from_scanner("skip", nullptr, 0));
  sink.text("hidden");
  sink.start("b", HtmlElement::from_scanner("b", nullptr, 0));
  sink.end("skip");
  sink.end("i");  // nothing of that name is open
  sink.text("tail");
  sink.finish();
  EXPECT_EQ(r.events, "<div>[a+bc]<skip>[tail]</div>");
}

// The open-tag counts (open addressing, backward-shift deletion) against a plain stack, on
// random start and end tags from a pool with long names that share their first 16 bytes.
TEST(HtmlEventSink, OpenTagCountsAgreeWithTheStackOnRandomPages) {
  std::vector<std::string> pool;
  for (int i = 0; i < 300; ++i) pool.push_back("t" + std::to_string(i));
  for (int i = 0; i < 20; ++i) pool.push_back("a-very-long-custom-element-" + std::to_string(i));
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    Recorder r;
    HtmlEventSink sink(r, 100000);
    std::vector<std::string> stack;
    for (int step = 0; step < 5000; ++step) {
      const std::string& tag = pool[rng() % (round % 2 ? 40 : pool.size())];
      if (rng() % 3 != 0) {
        sink.start(tag, HtmlElement::from_scanner(tag, nullptr, 0));
        stack.push_back(tag);
      } else {
        sink.end(tag);
        for (size_t i = stack.size(); i > 0; --i) {
          if (stack[i - 1] == tag) {
            stack.resize(i - 1);
            break;
          }
        }
      }
      ASSERT_EQ(sink.depth(), stack.size());
      const std::string& probe = pool[rng() % pool.size()];
      bool open = std::find(stack.begin(), stack.end(), probe) != stack.end();
      // A long name may share its count with another of the same first 16 bytes: the
      // count can say "open" for it, never "closed" when it is open.
      if (probe.size() <= 16) {
        ASSERT_EQ(sink.is_open(probe), open) << probe << " step " << step;
      } else if (open) {
        ASSERT_TRUE(sink.is_open(probe)) << probe;
      }
    }
    sink.finish();
    EXPECT_EQ(sink.depth(), 0u);
    for (const auto& tag : pool) EXPECT_FALSE(sink.is_open(tag)) << tag;
  }
}

}  // namespace
}  // namespace winnow::html_backends
