// WikipediaReader on a generated MediaWiki dump, in CPU seconds of this thread (reading,
// decompressing, XML parsing and wikitext → plain text, all on the calling thread):
//   - the dump as plain .xml,
//   - the same as .xml.bz2 written by the `bzip2` command (-9, as Wikimedia's dumps),
//   - bzip2 decompression alone (ByteSource), for the share it takes.
// Speed is MB of uncompressed dump (and of the .bz2 file) per CPU second.
//
// Usage: build/bench/wikipedia_bench [WORK_DIR=build/bench/wikipedia] [PAGES=20000]
// Pages are article-like: an infobox with nested templates, bold and italic, internal links
// with and without text, refs with cite templates, a table, lists, headings, categories and a
// file link, with varied words, about 5 KB of wikitext each (English Wikipedia's mean article
// is about 4-5 KB of wikitext in pages-articles).
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "bench_support.h"
#include "core/html_escape.h"
#include "io/byte_source.h"
#include "io/wikipedia_reader.h"

namespace {

namespace fs = std::filesystem;
using winnow::escape_html;
using winnow::bench::thread_cpu_seconds;

std::string article(std::mt19937& rng, int n) {
  static const char* kWords[] = {"river", "city", "history", "century", "population", "music",
                                 "university", "language", "species", "railway", "battle",
                                 "church", "district", "album", "season", "village", "Zürich",
                                 "économie", "東京", "Москва", "government", "football"};
  // Half the words from the list, half made of random letters, so that bzip2 compresses the
  // dump about as much as a real one (English Wikipedia's pages-articles: about 4.5 to 1).
  auto word = [&] {
    if (rng() % 2) return std::string(kWords[rng() % std::size(kWords)]);
    std::string w(3 + rng() % 7, 'a');
    for (char& c : w) c = static_cast<char>('a' + rng() % 26);
    return w;
  };
  auto sentence = [&] {
    std::string s = "The " + word();
    for (int k = 0; k < 12; ++k) {
      switch (rng() % 9) {
        case 0:
          s += " [[" + word() + "]]";
          break;
        case 1:
          s += " [[" + word() + " (" + word() + ")|" + word() + "]]";
          break;
        case 2:
          s += " ''" + word() + "''";
          break;
        case 3:
          s += "<ref name=\"r" + std::to_string(rng() % 50) + "\">{{cite web|url=https://example.org/" +
               word() + "|title=" + word() + "|date=2020}}</ref>";
          break;
        default:
          s += " " + word();
      }
    }
    return s + ". ";
  };
  std::string t = "{{Infobox settlement|name=" + word() + "|population={{formatnum:" +
                  std::to_string(rng() % 100000) + "}}|coordinates={{coord|47|22|N|8|33|E}}}}\n";
  t += "'''Page " + std::to_string(n) + "''' is a " + word() + ".<ref>{{cite book|title=" +
       word() + "}}</ref> " + sentence() + sentence() + "\n\n";
  for (int sec = 0; sec < 4; ++sec) {
    t += "== " + word() + " ==\n";
    for (int p = 0; p < 2; ++p) t += sentence() + sentence() + sentence() + "\n\n";
    if (sec == 1) {
      t += "{| class=\"wikitable\"\n|-\n! Year !! " + word() + "\n|-\n| 1900 || " + word() +
           "\n|-\n| 2000 || " + word() + "\n|}\n";
    }
    if (sec == 2) t += "* " + sentence() + "\n* " + sentence() + "\n";
    if (sec == 3) t += "[[File:" + word() + ".jpg|thumb|A [[" + word() + "]] at night]]\n";
  }
  t += "<!-- maintenance note -->\n[[Category:" + word() + "]]\n[[Category:" + word() + "s]]";
  return t;
}

void write_dump(const std::string& path, int pages) {
  std::mt19937 rng(7);
  std::ofstream out(path, std::ios::binary);
  out << "<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.10/\" version=\"0.10\">\n";
  for (int i = 1; i <= pages; ++i) {
    bool redirect = i % 10 == 0;  // about a tenth of enwiki's main namespace are redirects
    std::string text = redirect ? "#REDIRECT [[Page 1]]" : article(rng, i);
    out << "  <page>\n    <title>Page " << i << "</title>\n    <ns>0</ns>\n    <id>" << i
        << "</id>\n" << (redirect ? "    <redirect title=\"Page 1\" />\n" : "")
        << "    <revision>\n      <id>" << i * 10
        << "</id>\n      <text xml:space=\"preserve\">" << escape_html(text)
        << "</text>\n    </revision>\n  </page>\n";
  }
  out << "</mediawiki>\n";
}

struct Result {
  double cpu = 0;
  uint64_t docs = 0, text_bytes = 0, errors = 0;
};

Result read(const std::string& path) {
  double start = thread_cpu_seconds();
  winnow::WikipediaReader reader(path, 0, {});
  Result r;
  while (auto batch = reader.next()) {
    for (const auto& e : batch->errors) fmt::print(stderr, "error: {}\n", e.message);
    r.docs += batch->size();
    for (size_t i = 0; i < batch->size(); ++i) r.text_bytes += batch->text(i).size();
    r.errors += batch->errors.size();
  }
  r.cpu = thread_cpu_seconds() - start;
  return r;
}

double decompress_only(const std::string& path) {
  double start = thread_cpu_seconds();
  winnow::StreamError error;
  auto source = winnow::ByteSource::open(path, &error);
  std::string buffer(1 << 20, '\0');
  while (source && source->read(buffer.data(), buffer.size()) > 0) {
  }
  return thread_cpu_seconds() - start;
}

}  // namespace

int main(int argc, char** argv) {
  std::string work = argc > 1 ? argv[1] : "build/bench/wikipedia";
  int pages = argc > 2 ? std::atoi(argv[2]) : 20000;
  fs::create_directories(work);
  std::string xml = work + "/bench-pages-articles.xml";
  std::string bz2 = xml + ".bz2";
  if (!fs::exists(xml) || !fs::exists(bz2)) {
    write_dump(xml, pages);
    if (std::system(("bzip2 -9 -k -f " + xml).c_str()) != 0) return 1;
  }
  double xml_mb = static_cast<double>(fs::file_size(xml)) / 1e6;
  double bz2_mb = static_cast<double>(fs::file_size(bz2)) / 1e6;
  fmt::print("dump: {:.1f} MB of XML, {:.1f} MB as bzip2\n", xml_mb, bz2_mb);
  Result plain = read(xml);
  fmt::print("plain .xml:  {} docs, {:.1f} MB of text, {:.2f} CPU s: {:.1f} MB of dump/CPU s\n",
             plain.docs, plain.text_bytes / 1e6, plain.cpu, xml_mb / plain.cpu);
  Result packed = read(bz2);
  fmt::print(
      ".xml.bz2:    {} docs, {:.2f} CPU s: {:.1f} MB of dump (uncompressed)/CPU s, {:.2f} MB of "
      ".bz2/CPU s\n",
      packed.docs, packed.cpu, xml_mb / packed.cpu, bz2_mb / packed.cpu);
  double unbz = decompress_only(bz2);
  fmt::print("bzip2 decompression alone: {:.2f} CPU s ({:.0f}% of the .bz2 read)\n", unbz,
             100 * unbz / packed.cpu);
  return plain.errors + packed.errors == 0 && plain.docs == packed.docs ? 0 : 1;
}
