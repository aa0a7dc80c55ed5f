#!/usr/bin/python3
"""Small image-encoder and embedding-head ONNX models with seeded random weights, and the
reference computations the image model tests compare winnow with: Pillow for decoding and
resizing (what transformers' image processors use), numpy for the rest. Run with
/usr/bin/python3 (Debian's python3-onnx, python3-pil, numpy).

  vision_test_model.py encoder DIR [--seed S] [--size N] [--patch P] [--width C] [--embed E]
      [--preprocessor clip|vit|siglip] [--file vision_model.onnx] [--spatial]
    DIR/<file>: pixel_values [batch, 3, N, N] float -> Conv(P x P, stride P) -> tanh -> mean over
    the patches = pooler_output [batch, C] -> MatMul = image_embeds [batch, E] (with --spatial,
    image_embeds projects every patch's features, flattened, which keeps where things are: a
    random model that tells pictures apart, for dedup tests); also
    DIR/preprocessor_config.json (clip: shortest edge N, bicubic, centre crop; vit: N x N
    bilinear, no crop; siglip: N x N bicubic, mean = std = 0.5) and DIR/weights.npz.

  vision_test_model.py head FILE [--seed S] [--input D] [--hidden H] [--rank1]
    FILE: embeddings [batch, D] -> Gemm -> ReLU -> Gemm -> score [batch, 1] ([batch] with
    --rank1); weights beside it in FILE.npz.

  vision_test_model.py preprocess DIR IMAGES.json OUT.json
    The preprocessed tensor of each image file, as transformers' slow image processor makes it
    from Pillow's decode: {"shape": [3, H, W], "values": [...]} per image.

  vision_test_model.py embed DIR IMAGES.json OUT.json [--no-normalize] [--output NAME]
    The embedding of each image file (float64 from the preprocessed tensor), L2-normalised.

  vision_test_model.py score FILE VECTORS.json OUT.json [--no-normalize]
    The head's score of each vector (L2-normalised first unless --no-normalize).

  vision_test_model.py resize IN.raw W H C OUT_W OUT_H FILTER OUT.raw
    Pillow's Image.resize of raw interleaved 8-bit pixels (C = 1 or 3; FILTER bilinear or
    bicubic).
"""
import argparse
import json
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from PIL import Image

PREPROCESSORS = {
    "clip": lambda n: {
        "crop_size": {"height": n, "width": n}, "do_center_crop": True, "do_convert_rgb": True,
        "do_normalize": True, "do_rescale": True, "do_resize": True,
        "image_mean": [0.48145466, 0.4578275, 0.40821073],
        "image_std": [0.26862954, 0.26130258, 0.27577711],
        "image_processor_type": "CLIPImageProcessor", "resample": 3,
        "rescale_factor": 0.00392156862745098, "size": {"shortest_edge": n}},
    "vit": lambda n: {
        "do_normalize": True, "do_rescale": True, "do_resize": True,
        "image_mean": [0.5, 0.5, 0.5], "image_std": [0.5, 0.5, 0.5],
        "image_processor_type": "ViTImageProcessor", "resample": 2,
        "rescale_factor": 0.00392156862745098, "size": {"height": n, "width": n}},
    "siglip": lambda n: {
        "do_normalize": True, "do_rescale": True, "do_resize": True,
        "image_mean": [0.5, 0.5, 0.5], "image_std": [0.5, 0.5, 0.5],
        "image_processor_type": "SiglipImageProcessor", "resample": 3,
        "rescale_factor": 0.00392156862745098, "size": {"height": n, "width": n}},
}


def build_encoder(args):
    rng = np.random.default_rng(args.seed)
    c, p, e = args.width, args.patch, args.embed
    conv_w = (rng.standard_normal((c, 3, p, p)) * (1.0 / p)).astype(np.float32)
    conv_b = (rng.standard_normal(c) * 0.1).astype(np.float32)
    grid = (args.size // p) ** 2
    proj_w = (rng.standard_normal((c * grid if args.spatial else c, e)) * 0.5).astype(np.float32)
    os.makedirs(args.dir, exist_ok=True)
    np.savez(os.path.join(args.dir, "weights.npz"), conv_w=conv_w, conv_b=conv_b, proj_w=proj_w)
    nodes = [
        helper.make_node("Conv", ["pixel_values", "conv_w", "conv_b"], ["patches"],
                         kernel_shape=[p, p], strides=[p, p]),
        helper.make_node("Tanh", ["patches"], ["act"]),
        helper.make_node("ReduceMean", ["act"], ["pooler_output"], axes=[2, 3], keepdims=0),
    ]
    if args.spatial:
        nodes += [helper.make_node("Flatten", ["act"], ["flat"], axis=1),
                  helper.make_node("MatMul", ["flat", "proj_w"], ["image_embeds"])]
    else:
        nodes.append(helper.make_node("MatMul", ["pooler_output", "proj_w"], ["image_embeds"]))
    graph = helper.make_graph(
        nodes, "tiny_vision",
        [helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT,
                                       ["batch", 3, args.size, args.size])],
        [helper.make_tensor_value_info("image_embeds", TensorProto.FLOAT, ["batch", e]),
         helper.make_tensor_value_info("pooler_output", TensorProto.FLOAT, ["batch", c])],
        [numpy_helper.from_array(conv_w, "conv_w"), numpy_helper.from_array(conv_b, "conv_b"),
         numpy_helper.from_array(proj_w, "proj_w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(args.dir, args.file))
    with open(os.path.join(args.dir, "preprocessor_config.json"), "w") as f:
        json.dump(PREPROCESSORS[args.preprocessor](args.size), f, indent=2)


def build_head(args):
    rng = np.random.default_rng(args.seed)
    w1 = (rng.standard_normal((args.input, args.hidden)) * 1.0).astype(np.float32)
    b1 = (rng.standard_normal(args.hidden) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((args.hidden, 1)) * 1.0).astype(np.float32)
    b2 = np.array([0.5], dtype=np.float32)
    np.savez(args.file + ".npz", w1=w1, b1=b1, w2=w2, b2=b2)
    nodes = [helper.make_node("Gemm", ["embeddings", "w1", "b1"], ["h"]),
             helper.make_node("Relu", ["h"], ["a"]),
             helper.make_node("Gemm", ["a", "w2", "b2"], ["score2" if args.rank1 else "score"])]
    out_shape = ["batch", 1]
    if args.rank1:
        nodes.append(helper.make_node("Squeeze", ["score2", "axes"], ["score"]))
        out_shape = ["batch"]
    inits = [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
             numpy_helper.from_array(w2, "w2"), numpy_helper.from_array(b2, "b2")]
    if args.rank1:
        inits.append(numpy_helper.from_array(np.array([1], dtype=np.int64), "axes"))
    graph = helper.make_graph(
        nodes, "tiny_head",
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", args.input])],
        [helper.make_tensor_value_info("score", TensorProto.FLOAT, out_shape)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, args.file)


# ---- transformers' slow image processor, step by step (image_processing_clip / vit / siglip)

def resized_size(config, width, height):
    size = config["size"]
    if "shortest_edge" in size:
        s = size["shortest_edge"]
        short, long = (width, height) if width <= height else (height, width)
        new_short, new_long = s, int(s * long / short)
        return (new_short, new_long) if width <= height else (new_long, new_short)  # (w, h)
    return size["width"], size["height"]


def center_crop(array, crop_h, crop_w):
    h, w = array.shape[:2]
    top, left = (h - crop_h) // 2, (w - crop_w) // 2
    if top >= 0 and left >= 0 and top + crop_h <= h and left + crop_w <= w:
        return array[top:top + crop_h, left:left + crop_w]
    new_h, new_w = max(crop_h, h), max(crop_w, w)
    padded = np.zeros((new_h, new_w) + array.shape[2:], dtype=array.dtype)
    top_pad, left_pad = math.ceil((new_h - h) / 2), math.ceil((new_w - w) / 2)
    padded[top_pad:top_pad + h, left_pad:left_pad + w] = array
    top, left = top + top_pad, left + left_pad
    return padded[max(0, top):min(new_h, top + crop_h), max(0, left):min(new_w, left + crop_w)]


def preprocess(config, path):
    image = Image.open(path).convert("RGB")
    if config.get("do_resize", True):
        filters = {2: Image.BILINEAR, 3: Image.BICUBIC}
        image = image.resize(resized_size(config, *image.size), resample=filters[config["resample"]])
    array = np.array(image)
    if config.get("do_center_crop", False):
        crop = config["crop_size"]
        array = center_crop(array, crop["height"], crop["width"])
    if config.get("do_rescale", True):
        array = (array.astype(np.float64) * config.get("rescale_factor", 1 / 255)).astype(np.float32)
    if config.get("do_normalize", True):
        array = array.astype(np.float32)
        mean = np.array(config["image_mean"], dtype=np.float32)
        std = np.array(config["image_std"], dtype=np.float32)
        array = (array - mean) / std
    return array.transpose(2, 0, 1)  # channels first


def encode(weights, tensor):
    conv_w, conv_b, proj_w = (weights[k].astype(np.float64) for k in ("conv_w", "conv_b", "proj_w"))
    c, _, p, _ = conv_w.shape
    x = tensor.astype(np.float64)
    _, h, w = x.shape
    gh, gw = h // p, w // p
    patches = x[:, :gh * p, :gw * p].reshape(3, gh, p, gw, p).transpose(1, 3, 0, 2, 4)
    act = np.tanh(np.einsum("yxcij,ocij->yxo", patches, conv_w) + conv_b)
    pooled = act.mean(axis=(0, 1))
    if proj_w.shape[0] != c:  # --spatial: ONNX's Flatten of [C, gh, gw]
        return {"pooler_output": pooled,
                "image_embeds": act.transpose(2, 0, 1).reshape(-1) @ proj_w}
    return {"pooler_output": pooled, "image_embeds": pooled @ proj_w}


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    enc = sub.add_parser("encoder")
    enc.add_argument("dir")
    enc.add_argument("--seed", type=int, default=1)
    enc.add_argument("--size", type=int, default=32)
    enc.add_argument("--patch", type=int, default=8)
    enc.add_argument("--width", type=int, default=16)
    enc.add_argument("--embed", type=int, default=12)
    enc.add_argument("--preprocessor", default="clip", choices=sorted(PREPROCESSORS))
    enc.add_argument("--file", default="vision_model.onnx")
    enc.add_argument("--spatial", action="store_true")
    head = sub.add_parser("head")
    head.add_argument("file")
    head.add_argument("--seed", type=int, default=2)
    head.add_argument("--input", type=int, default=12)
    head.add_argument("--hidden", type=int, default=8)
    head.add_argument("--rank1", action="store_true")
    for name in ("preprocess", "embed"):
        p = sub.add_parser(name)
        p.add_argument("dir")
        p.add_argument("images")
        p.add_argument("out")
        p.add_argument("--no-normalize", action="store_true")
        p.add_argument("--output", default="image_embeds")
    score = sub.add_parser("score")
    score.add_argument("file")
    score.add_argument("vectors")
    score.add_argument("out")
    score.add_argument("--no-normalize", action="store_true")
    resize = sub.add_parser("resize")
    for name in ("input", "width", "height", "channels", "out_width", "out_height", "filter",
                 "output"):
        resize.add_argument(name)
    args = parser.parse_args()

    if args.command == "encoder":
        build_encoder(args)
    elif args.command == "head":
        build_head(args)
    elif args.command in ("preprocess", "embed"):
        with open(os.path.join(args.dir, "preprocessor_config.json")) as f:
            config = json.load(f)
        with open(args.images) as f:
            paths = json.load(f)
        weights = np.load(os.path.join(args.dir, "weights.npz")) if args.command == "embed" else None
        result = []
        for path in paths:
            tensor = preprocess(config, path)
            if args.command == "preprocess":
                result.append({"shape": list(tensor.shape),
                               "values": [float(v) for v in tensor.ravel()]})
            else:
                v = encode(weights, tensor)[args.output]
                if not args.no_normalize:
                    v = v / np.linalg.norm(v)
                result.append([float(x) for x in v])
        with open(args.out, "w") as f:
            json.dump(result, f)
    elif args.command == "score":
        w = np.load(args.file + ".npz")
        with open(args.vectors) as f:
            vectors = np.array(json.load(f), dtype=np.float64)
        if not args.no_normalize:
            vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        h = np.maximum(vectors @ w["w1"].astype(np.float64) + w["b1"], 0)
        scores = (h @ w["w2"].astype(np.float64) + w["b2"])[:, 0]
        with open(args.out, "w") as f:
            json.dump([float(s) for s in scores], f)
    elif args.command == "resize":
        w, h, c = int(args.width), int(args.height), int(args.channels)
        data = np.fromfile(args.input, dtype=np.uint8).reshape((h, w, c) if c > 1 else (h, w))
        image = Image.fromarray(data, "RGB" if c == 3 else "L")
        filters = {"bilinear": Image.BILINEAR, "bicubic": Image.BICUBIC}
        out = image.resize((int(args.out_width), int(args.out_height)),
                           resample=filters[args.filter])
        np.array(out).tofile(args.output)


if __name__ == "__main__":
    sys.exit(main())
