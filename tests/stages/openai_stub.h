#pragma once
// Starts tests/stages/openai_stub_server.py (an OpenAI-compatible chat server that
// answers from the request, with scripted faults) on 127.0.0.1 at a port the OS chooses, and
// stops it when the object dies. The caption and llm_rewrite tests talk to it through the real
// HTTP stack.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow::testing {

class OpenAiStub {
 public:
  // `args`: the server's options (--script 500,429 --then ok --hang-s 3 --log FILE).
  explicit OpenAiStub(const std::vector<std::string>& args) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
      std::vector<std::string> argv = {"python3",
                                       kSource + "/tests/stages/openai_stub_server.py"};
      argv.insert(argv.end(), args.begin(), args.end());
      std::vector<char*> c;
      for (auto& a : argv) c.push_back(a.data());
      c.push_back(nullptr);
      execvp("python3", c.data());
      _exit(127);
    }
    close(fds[1]);
    FILE* out = fdopen(fds[0], "r");
    char line[64] = {};
    if (out && fgets(line, sizeof line, out)) port_ = std::atoi(line);
    if (out) fclose(out);
  }
  ~OpenAiStub() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  OpenAiStub(const OpenAiStub&) = delete;
  OpenAiStub& operator=(const OpenAiStub&) = delete;

  int port() const { return port_; }  // 0: it did not start
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace winnow::testing
