#!/usr/bin/python3
"""A tiny stand-in for Silero VAD (its ONNX interface, no learnt weights) for the vad_segment
tests, and what Silero's OnnxWrapper would get from it. Run with /usr/bin/python3 (Debian's
python3-onnx, numpy).

  vad_test_model.py build FILE [--scale S] [--offset D] [--carry W]
    inputs `input` float [batch, samples], `state` float [2, batch, 128], `sr` int64 (unused)
    -> per row, e = log(mean(input ** 2) + 1e-10) (the window with its context: loud is
    speech), `output` = sigmoid(S * (e - D) + W * mean(state)) as [batch, 1], and `stateN`
    = e everywhere, [2, batch, 128]: the state carries the previous window's e, so a wrapper
    that does not feed the state back, or gives the wrong context, gets other numbers.
  vad_test_model.py probs RAW RATE [--scale S] [--offset D] [--carry W]
    RAW: float32 mono samples at RATE (16000 or 8000). Prints one probability a line, per
    window of 512 (256) samples with 64 (32) of context, as OnnxWrapper feeds the model.
"""
import argparse

import numpy as np


def build(args):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    def const(name, values, dtype=np.float32):
        return numpy_helper.from_array(np.array(values, dtype=dtype), name)

    inits = [const("eps", [1e-10]), const("scale", [args.scale]), const("offset", [args.offset]),
             const("carry", [args.carry]), const("zero", [0.0]), const("axis0", [0], np.int64)]
    nodes = [
        helper.make_node("Mul", ["input", "input"], ["sq"]),
        helper.make_node("ReduceMean", ["sq"], ["power"], axes=[1], keepdims=1),
        helper.make_node("Add", ["power", "eps"], ["power_eps"]),
        helper.make_node("Log", ["power_eps"], ["e"]),  # [batch, 1]
        helper.make_node("ReduceMean", ["state"], ["state_mean"], axes=[0, 2], keepdims=0),
        helper.make_node("Unsqueeze", ["state_mean", "axis0"], ["state_mean_t"]),  # [1, batch]
        helper.make_node("Transpose", ["state_mean_t"], ["previous"], perm=[1, 0]),  # [batch, 1]
        helper.make_node("Sub", ["e", "offset"], ["centred"]),
        helper.make_node("Mul", ["centred", "scale"], ["scaled"]),
        helper.make_node("Mul", ["previous", "carry"], ["carried"]),
        helper.make_node("Add", ["scaled", "carried"], ["logit"]),
        helper.make_node("Sigmoid", ["logit"], ["output"]),
        helper.make_node("Unsqueeze", ["e", "axis0"], ["e3"]),  # [1, batch, 1]
        helper.make_node("Mul", ["state", "zero"], ["cleared"]),
        helper.make_node("Add", ["cleared", "e3"], ["stateN"]),
    ]
    graph = helper.make_graph(
        nodes, "vad_test",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", "samples"]),
         helper.make_tensor_value_info("state", TensorProto.FLOAT, [2, "batch", 128]),
         helper.make_tensor_value_info("sr", TensorProto.INT64, [])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", 1]),
         helper.make_tensor_value_info("stateN", TensorProto.FLOAT, [2, "batch", 128])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, args.file)


def probs(args):
    audio = np.fromfile(args.file, dtype=np.float32)
    window, context = (512, 64) if args.rate == 16000 else (256, 32)
    ctx = np.zeros(context, np.float32)
    state = np.float32(0)
    for start in range(0, len(audio), window):
        chunk = np.zeros(window, np.float32)
        piece = audio[start:start + window]
        chunk[:len(piece)] = piece
        x = np.concatenate([ctx, chunk])
        e = np.log(np.float32(np.mean(x.astype(np.float64) ** 2)) + np.float32(1e-10))
        logit = args.scale * (e - args.offset) + args.carry * state
        print(repr(float(1 / (1 + np.exp(-logit)))))
        state = e
        ctx = x[-context:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["build", "probs"])
    parser.add_argument("file")
    parser.add_argument("rate", type=int, nargs="?", default=16000)
    parser.add_argument("--scale", type=float, default=2.0)
    parser.add_argument("--offset", type=float, default=-10.0)
    parser.add_argument("--carry", type=float, default=0.01)
    args = parser.parse_args()
    build(args) if args.mode == "build" else probs(args)


main()
