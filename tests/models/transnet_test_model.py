#!/usr/bin/python3
"""A tiny stand-in for TransNetV2 (same input and outputs, no learnt weights) for the
transnetv2 splitter's tests. Run with /usr/bin/python3 (Debian's python3-onnx, numpy).

  transnet_test_model.py FILE [--uint8] [--logits] [--rank2] [--scale S] [--offset D]
    FILE: frames [batch, 100, 27, 48, 3] (float, or uint8 with --uint8; 0-255) ->
    per frame t, d(t) = mean over R, G, B of |mean colour of frame t + 1 - that of frame t| (0
    for the window's last frame: a change of the whole picture's colour, which a hard cut
    between two scenes makes and a pan or a moving object hardly does) -> single_frame = sigmoid(S * (d - D)) as [batch, 100, 1] ([batch, 100] with
    --rank2; the logit S * (d - D) itself with --logits), the first output; a second output,
    all_frames, as TransNetV2's many-hot head has (here 1 - single_frame, so that reading the
    wrong output shows). A frame that differs from the next one scores high: the last frame of
    a shot before a hard cut, which is what TransNetV2's single-frame head marks.
"""
import argparse
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--uint8", action="store_true")
    parser.add_argument("--logits", action="store_true")
    parser.add_argument("--rank2", action="store_true")
    parser.add_argument("--scale", type=float, default=0.5)
    parser.add_argument("--offset", type=float, default=12.0)
    args = parser.parse_args()

    def const(name, values, dtype=np.int64):
        return numpy_helper.from_array(np.array(values, dtype=dtype), name)

    inits = [
        const("starts_next", [1]), const("ends_next", [100]),
        const("starts_this", [0]), const("ends_this", [99]),
        const("axis1", [1]),
        const("scale", [args.scale], np.float32), const("offset", [args.offset], np.float32),
        const("one", [1.0], np.float32), const("last_axis", [2]),
    ]
    nodes = []
    frames = "frames"
    if args.uint8:
        nodes.append(helper.make_node("Cast", ["frames"], ["frames_f"], to=TensorProto.FLOAT))
        frames = "frames_f"
    nodes += [
        helper.make_node("ReduceMean", [frames], ["colour"], axes=[2, 3], keepdims=0),
        helper.make_node("Slice", ["colour", "starts_next", "ends_next", "axis1"], ["next"]),
        helper.make_node("Slice", ["colour", "starts_this", "ends_this", "axis1"], ["this"]),
        helper.make_node("Sub", ["next", "this"], ["delta"]),
        helper.make_node("Abs", ["delta"], ["abs"]),
        helper.make_node("ReduceMean", ["abs"], ["d99"], axes=[2], keepdims=0),
        # The last frame has no next one: d = 0 (a pad column taken from the first, times 0).
        helper.make_node("Slice", ["d99", "starts_this", "starts_next", "axis1"], ["first"]),
        helper.make_node("Sub", ["first", "first"], ["zero"]),
        helper.make_node("Concat", ["d99", "zero"], ["d"], axis=1),
        helper.make_node("Sub", ["d", "offset"], ["centred"]),
        helper.make_node("Mul", ["centred", "scale"], ["logit"]),
    ]
    if args.logits:
        nodes.append(helper.make_node("Identity", ["logit"], ["p"]))
    else:
        nodes.append(helper.make_node("Sigmoid", ["logit"], ["p"]))
    nodes.append(helper.make_node("Sub", ["one", "p"], ["q"]))
    if args.rank2:
        out_shape = ["batch", 100]
        nodes += [helper.make_node("Identity", ["p"], ["single_frame"]),
                  helper.make_node("Identity", ["q"], ["all_frames"])]
    else:
        out_shape = ["batch", 100, 1]
        nodes += [helper.make_node("Unsqueeze", ["p", "last_axis"], ["single_frame"]),
                  helper.make_node("Unsqueeze", ["q", "last_axis"], ["all_frames"])]
    graph = helper.make_graph(
        nodes, "tiny_transnet",
        [helper.make_tensor_value_info(
            "frames", TensorProto.UINT8 if args.uint8 else TensorProto.FLOAT,
            ["batch", 100, 27, 48, 3])],
        [helper.make_tensor_value_info("single_frame", TensorProto.FLOAT, out_shape),
         helper.make_tensor_value_info("all_frames", TensorProto.FLOAT, out_shape)],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, args.file)


if __name__ == "__main__":
    sys.exit(main())
