#pragma once
// ONNX Runtime is loaded on first use (models/onnx_session.cpp), not at program start, so a run
// without a model stage never pays for loading it. This says whether the process has asked for
// it yet (a session, OnnxSession::runtime_version or has_cuda); tests check the decision here.

namespace winnow {

bool onnx_runtime_requested();

}  // namespace winnow
