#!/usr/bin/python3
"""A tiny stand-in for a NeMo CTC model exported to ONNX (its inputs and outputs, no learnt
weights) and its config, for the transcribe tests; and what greedy decoding of it gives, from
features computed by tests/media/log_mel_reference.py. Run with /usr/bin/python3 (python3-onnx,
numpy).

  ctc_test_model.py build MODEL CONFIG
    MODEL: `audio_signal` float [batch, 8, frames], `length` int64 [batch] -> `logprobs`
    [batch, ceil(frames / 2), 8] = log_softmax over the 8 mel bands of every other frame
    (subsampling 2): the token of a frame is its loudest band after normalisation. The
    vocabulary is 7 tokens (band 7 is the blank); CONFIG is a NeMo model_config.yaml with
    8 mel features at 16 kHz, 25 ms windows, 10 ms stride.
  ctc_test_model.py decode CONFIG RAW
    RAW: float32 mono samples at 16 kHz. Prints the greedy transcript, then the smallest gap
    between a frame's best and second-best band (how far the answer is from a tie).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "media"))

VOCABULARY = ["a", "b", "c", " ", "d", "e", "\u2581f"]
CONFIG = """preprocessor:
  _target_: nemo.collections.asr.modules.AudioToMelSpectrogramPreprocessor
  sample_rate: 16000
  normalize: per_feature
  window_size: 0.025
  window_stride: 0.01
  window: hann
  features: 8
  n_fft: 512
  log: true
  frame_splicing: 1
  dither: 1.0e-05
  pad_to: 16
decoder:
  _target_: nemo.collections.asr.modules.ConvASRDecoder
  num_classes: 7
  vocabulary:
"""


def build(model_path, config_path):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    def const(name, values):
        return numpy_helper.from_array(np.array(values, dtype=np.int64), name)

    inits = [const("starts", [0]), const("ends", [1 << 30]), const("axes", [2]), const("steps", [2])]
    nodes = [
        helper.make_node("Slice", ["audio_signal", "starts", "ends", "axes", "steps"], ["every_other"]),
        helper.make_node("Transpose", ["every_other"], ["frames_first"], perm=[0, 2, 1]),
        helper.make_node("LogSoftmax", ["frames_first"], ["logprobs"], axis=2),
    ]
    graph = helper.make_graph(
        nodes, "ctc_test",
        [helper.make_tensor_value_info("audio_signal", TensorProto.FLOAT, ["batch", 8, "frames"]),
         helper.make_tensor_value_info("length", TensorProto.INT64, ["batch"])],
        [helper.make_tensor_value_info("logprobs", TensorProto.FLOAT, ["batch", "out", 8])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, model_path)
    with open(config_path, "w", encoding="utf-8") as out:
        out.write(CONFIG)
        for token in VOCABULARY:
            out.write(f"  - \"{token}\"\n")


def decode(raw):
    from log_mel_reference import features
    x = np.fromfile(raw, dtype=np.float32)
    mel = features(x, 16000, 400, 160, 512, 8, "hann", "per_feature")[:, ::2]
    ordered = np.sort(mel, axis=0)
    gap = float(np.min(ordered[-1] - ordered[-2])) if mel.shape[1] else 1.0
    best = np.argmax(mel, axis=0)
    ids, previous = [], -1
    for b in best:
        if b != previous and b != 7:
            ids.append(int(b))
        previous = b
    text = "".join(VOCABULARY[i] for i in ids).replace("\u2581", " ").strip(" ")
    print(text)
    print(gap)


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2], sys.argv[3])
    else:
        decode(sys.argv[3])
