#!/usr/bin/python3
"""Small BERT-style ONNX models with seeded random weights, and their outputs computed
independently with numpy, for the model tests (run with /usr/bin/python3: Debian's python3-onnx
and numpy).

  bert_test_model.py build DIR [--seed S] [--vocab V] [--hidden H] [--heads A] [--layers L]
      [--max-positions P] [--no-token-types]
      [--head none|pooler|classifier|regression|token] [--labels N] [--logit-shift S1,S2,...]
      [--label-names O,B-PER,...] [--plant ID:LABEL,...] [--input-ids-name NAME] [--int32]
    writes DIR/model.onnx, DIR/config.json and DIR/weights.npz (the weights the reference reads).
    Inputs: input_ids, attention_mask (and token_type_ids) [batch, sequence] int64. Outputs:
    last_hidden_state [batch, sequence, H]; with --head pooler also sentence_embedding
    [batch, H] (BERT's pooler: tanh of a dense layer on the first token); with classifier or
    regression, logits [batch, N or 1] on the pooler instead; with token (a token classifier,
    as BERT-NER), logits [batch, sequence, N]: a dense layer on each token's state plus a
    per-token-id bias table, zero except that --plant ID:LABEL adds 100 to LABEL's logit
    wherever token ID stands (so a test knows which words the model takes for entities), and
    --label-names gives config.json's id2label.

  bert_test_model.py reference DIR IDS.json OUT.json
    IDS.json: a list of token-id lists (one per document, no padding). OUT.json: per document
    {"mean": [...], "cls": [...], "pooler": [...], "logits": [...]} as applicable (a token
    classifier's "logits" are sequence x N, row-major), computed in
    float64 on the unpadded sequence (so they are the batch-size-1 truth).
"""
import argparse
import json
import os
import sys

import numpy as np


def make_weights(args):
    rng = np.random.default_rng(args.seed)
    h, f = args.hidden, args.hidden * 2

    def w(*shape, scale=0.2):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    weights = {
        "word_embeddings": w(args.vocab, h, scale=1.0),
        "position_embeddings": w(args.max_positions, h, scale=0.5),
        "type_embeddings": w(2, h, scale=0.5),
        "emb_ln_g": (1 + w(h, scale=0.1)), "emb_ln_b": w(h, scale=0.1),
    }
    for l in range(args.layers):
        for name in ("q", "k", "v", "o"):
            weights[f"l{l}_{name}_w"] = w(h, h)
            weights[f"l{l}_{name}_b"] = w(h, scale=0.1)
        weights[f"l{l}_ln1_g"] = 1 + w(h, scale=0.1)
        weights[f"l{l}_ln1_b"] = w(h, scale=0.1)
        weights[f"l{l}_ff1_w"] = w(h, f)
        weights[f"l{l}_ff1_b"] = w(f, scale=0.1)
        weights[f"l{l}_ff2_w"] = w(f, h)
        weights[f"l{l}_ff2_b"] = w(h, scale=0.1)
        weights[f"l{l}_ln2_g"] = 1 + w(h, scale=0.1)
        weights[f"l{l}_ln2_b"] = w(h, scale=0.1)
    if args.head == "token":
        weights["tok_w"] = w(h, args.labels, scale=0.5)
        weights["tok_b"] = w(args.labels, scale=0.1)
        if args.logit_shift:
            weights["tok_b"] += np.array([float(x) for x in args.logit_shift.split(",")],
                                         dtype=np.float32)
        plant = np.zeros((args.vocab, args.labels), dtype=np.float32)
        for entry in filter(None, args.plant.split(",")):
            token, label = (int(x) for x in entry.split(":"))
            plant[token, label] += 100.0
        weights["tok_plant"] = plant
    if args.head not in ("none", "token"):
        weights["pool_w"] = w(h, h)
        weights["pool_b"] = w(h, scale=0.1)
    if args.head in ("classifier", "regression"):
        n = args.labels if args.head == "classifier" else 1
        # Spread enough that documents get different labels, and regression scores around the
        # middle of FineWeb-Edu's 0-5 scale.
        weights["cls_w"] = w(h, n, scale=2.0)
        weights["cls_b"] = w(n, scale=0.1) + (2.5 if args.head == "regression" else 0.0)
        if args.logit_shift:
            weights["cls_b"] += np.array([float(x) for x in args.logit_shift.split(",")],
                                         dtype=np.float32)
    return weights


def build(args):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    weights = make_weights(args)
    os.makedirs(args.dir, exist_ok=True)
    np.savez(os.path.join(args.dir, "weights.npz"), **weights)
    nodes, inits = [], []
    for name, value in weights.items():
        inits.append(numpy_helper.from_array(value, name))

    def const(name, value, dtype=np.float32):
        inits.append(numpy_helper.from_array(np.array(value, dtype=dtype), name))
        return name

    counter = [0]

    def node(op, inputs, **attrs):
        counter[0] += 1
        out = f"t{counter[0]}"
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    h, a = args.hidden, args.heads
    d = h // a
    const("one", 1.0)
    const("half", 0.5)
    const("eps", 1e-12)
    const("sqrt2", np.sqrt(2.0))
    const("neg_big", -10000.0)
    const("scale", 1.0 / np.sqrt(d))
    const("axes_1_2", [1, 2], np.int64)
    const("axis_1", [1], np.int64)
    const("axis_2", [2], np.int64)
    const("i0", 0, np.int64)
    const("i1", 1, np.int64)
    const("shape_split", [0, 0, a, d], np.int64)
    const("shape_merge", [0, 0, h], np.int64)

    def layer_norm(x, g, b):
        mean = node("ReduceMean", [x], axes=[-1])
        centred = node("Sub", [x, mean])
        var = node("ReduceMean", [node("Mul", [centred, centred])], axes=[-1])
        normed = node("Div", [centred, node("Sqrt", [node("Add", [var, "eps"])])])
        return node("Add", [node("Mul", [normed, g]), b])

    def dense(x, w, b):
        return node("Add", [node("MatMul", [x, w]), b])

    ids_name = args.input_ids_name
    ids = ids_name
    mask = "attention_mask"
    if args.int32:
        ids = node("Cast", [ids_name], to=TensorProto.INT64)
        mask = node("Cast", ["attention_mask"], to=TensorProto.INT64)
    seq = node("Gather", [node("Shape", [ids]), "i1"], axis=0)
    positions = node("Range", ["i0", seq, "i1"])
    x = node("Add", [node("Gather", ["word_embeddings", ids], axis=0),
                     node("Gather", ["position_embeddings", positions], axis=0)])
    if not args.no_token_types:
        types = "token_type_ids"
        if args.int32:
            types = node("Cast", ["token_type_ids"], to=TensorProto.INT64)
        x = node("Add", [x, node("Gather", ["type_embeddings", types], axis=0)])
    x = layer_norm(x, "emb_ln_g", "emb_ln_b")
    mask_f = node("Cast", [mask], to=TensorProto.FLOAT)
    bias = node("Mul", [node("Sub", ["one", mask_f]), "neg_big"])
    bias = node("Unsqueeze", [bias, "axes_1_2"])  # [B, 1, 1, S]
    for l in range(args.layers):
        def heads(t):
            return node("Transpose", [node("Reshape", [t, "shape_split"])], perm=[0, 2, 1, 3])
        q = heads(dense(x, f"l{l}_q_w", f"l{l}_q_b"))
        k = node("Transpose", [node("Reshape", [dense(x, f"l{l}_k_w", f"l{l}_k_b"),
                                                "shape_split"])], perm=[0, 2, 3, 1])
        v = heads(dense(x, f"l{l}_v_w", f"l{l}_v_b"))
        scores = node("Add", [node("Mul", [node("MatMul", [q, k]), "scale"]), bias])
        probs = node("Softmax", [scores], axis=-1)
        ctx = node("Reshape", [node("Transpose", [node("MatMul", [probs, v])], perm=[0, 2, 1, 3]),
                               "shape_merge"])
        x = layer_norm(node("Add", [x, dense(ctx, f"l{l}_o_w", f"l{l}_o_b")]),
                       f"l{l}_ln1_g", f"l{l}_ln1_b")
        ff = dense(x, f"l{l}_ff1_w", f"l{l}_ff1_b")
        ff = node("Mul", [node("Mul", [ff, "half"]),
                          node("Add", ["one", node("Erf", [node("Div", [ff, "sqrt2"])])])])
        x = layer_norm(node("Add", [x, dense(ff, f"l{l}_ff2_w", f"l{l}_ff2_b")]),
                       f"l{l}_ln2_g", f"l{l}_ln2_b")
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    outputs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                             ["batch", "sequence", h])]
    if args.head == "token":
        logits = node("Add", [dense(x, "tok_w", "tok_b"),
                              node("Gather", ["tok_plant", ids], axis=0)])
        nodes.append(helper.make_node("Identity", [logits], ["logits"]))
        outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                                 ["batch", "sequence", args.labels])]
    elif args.head != "none":
        if args.head == "pooler":
            first = node("Gather", [x, "i0"], axis=1)
        else:
            # Classifier heads read the masked mean of the states (more spread between
            # documents than the first token of a random model).
            weights = node("Unsqueeze", [mask_f, "axis_2"])
            total = node("ReduceSum", [node("Mul", [x, weights]), "axis_1"], keepdims=0)
            first = node("Div", [total, node("ReduceSum", [mask_f, "axis_1"], keepdims=1)])
        pooled = node("Tanh", [dense(first, "pool_w", "pool_b")])
        if args.head == "pooler":
            nodes.append(helper.make_node("Identity", [pooled], ["sentence_embedding"]))
            outputs.append(helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT,
                                                         ["batch", h]))
        else:
            n = args.labels if args.head == "classifier" else 1
            nodes.append(helper.make_node("Add", [node("MatMul", [pooled, "cls_w"]), "cls_b"],
                                          ["logits"]))
            outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", n])]
    int_type = TensorProto.INT32 if args.int32 else TensorProto.INT64
    inputs = [helper.make_tensor_value_info(ids_name, int_type, ["batch", "sequence"]),
              helper.make_tensor_value_info("attention_mask", int_type, ["batch", "sequence"])]
    if not args.no_token_types:
        inputs.append(helper.make_tensor_value_info("token_type_ids", int_type,
                                                    ["batch", "sequence"]))
    graph = helper.make_graph(nodes, "bert_test_model", inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(args.dir, "model.onnx"))
    config = {"model_type": "bert", "hidden_size": h, "num_attention_heads": a,
              "num_hidden_layers": args.layers, "max_position_embeddings": args.max_positions,
              "vocab_size": args.vocab, "test_token_types": not args.no_token_types}
    if args.head == "classifier":
        config["id2label"] = {str(i): f"label_{i}" for i in range(args.labels)}
    if args.head == "token":
        names = args.label_names.split(",") if args.label_names else \
            [f"label_{i}" for i in range(args.labels)]
        config["id2label"] = {str(i): name for i, name in enumerate(names)}
    if args.head == "regression":
        config["id2label"] = {"0": "score"}
        config["problem_type"] = "regression"
    with open(os.path.join(args.dir, "config.json"), "w") as f:
        json.dump(config, f, indent=1)


def forward(weights, ids, layers, heads, token_types):
    w = {k: v.astype(np.float64) for k, v in weights.items()}
    ids = np.asarray(ids, dtype=np.int64)
    s = len(ids)

    def ln(x, g, b):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * g + b

    x = w["word_embeddings"][ids] + w["position_embeddings"][:s]
    if token_types:
        x = x + w["type_embeddings"][np.zeros(s, dtype=np.int64)]
    x = ln(x, w["emb_ln_g"], w["emb_ln_b"])
    h = x.shape[-1]
    d = h // heads
    from math import erf
    verf = np.vectorize(erf)
    for l in range(layers):
        def split(t):
            return t.reshape(s, heads, d).transpose(1, 0, 2)
        q = split(x @ w[f"l{l}_q_w"] + w[f"l{l}_q_b"])
        k = split(x @ w[f"l{l}_k_w"] + w[f"l{l}_k_b"])
        v = split(x @ w[f"l{l}_v_w"] + w[f"l{l}_v_b"])
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d)
        scores = scores - scores.max(-1, keepdims=True)
        p = np.exp(scores)
        p = p / p.sum(-1, keepdims=True)
        ctx = (p @ v).transpose(1, 0, 2).reshape(s, h)
        x = ln(x + ctx @ w[f"l{l}_o_w"] + w[f"l{l}_o_b"], w[f"l{l}_ln1_g"], w[f"l{l}_ln1_b"])
        ff = x @ w[f"l{l}_ff1_w"] + w[f"l{l}_ff1_b"]
        ff = 0.5 * ff * (1 + verf(ff / np.sqrt(2)))
        x = ln(x + ff @ w[f"l{l}_ff2_w"] + w[f"l{l}_ff2_b"], w[f"l{l}_ln2_g"], w[f"l{l}_ln2_b"])
    out = {"mean": x.mean(0), "cls": x[0]}
    if "tok_w" in w:
        logits = x @ w["tok_w"] + w["tok_b"] + w["tok_plant"][ids]
        return {"logits": logits.reshape(-1)}
    if "pool_w" in w:
        out["pooler"] = np.tanh(x[0] @ w["pool_w"] + w["pool_b"])
    if "cls_w" in w:
        pooled = np.tanh(out["mean"] @ w["pool_w"] + w["pool_b"])
        out["logits"] = pooled @ w["cls_w"] + w["cls_b"]
        del out["pooler"]
    return out


def reference(args):
    with open(os.path.join(args.dir, "config.json")) as f:
        config = json.load(f)
    weights = dict(np.load(os.path.join(args.dir, "weights.npz")))
    with open(args.ids) as f:
        documents = json.load(f)
    token_types = config["test_token_types"]  # all zeros: single-sequence inputs
    results = []
    for ids in documents:
        out = forward(weights, ids, config["num_hidden_layers"], config["num_attention_heads"],
                      token_types)
        results.append({k: [float(x) for x in v] for k, v in out.items()})
    with open(args.out, "w") as f:
        json.dump(results, f)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("dir")
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--vocab", type=int, default=64)
    b.add_argument("--hidden", type=int, default=16)
    b.add_argument("--heads", type=int, default=2)
    b.add_argument("--layers", type=int, default=2)
    b.add_argument("--max-positions", type=int, default=64)
    b.add_argument("--no-token-types", action="store_true")
    b.add_argument("--head", default="none", choices=["none", "pooler", "classifier", "regression", "token"])
    b.add_argument("--labels", type=int, default=3)
    b.add_argument("--logit-shift", default="",
                   help="added to the head's biases (tests centre the outputs on their texts)")
    b.add_argument("--label-names", default="", help="token head: id2label, comma-separated")
    b.add_argument("--plant", default="", help="token head: ID:LABEL pairs, comma-separated")
    b.add_argument("--input-ids-name", default="input_ids")
    b.add_argument("--int32", action="store_true")
    r = sub.add_parser("reference")
    r.add_argument("dir")
    r.add_argument("ids")
    r.add_argument("out")
    args = parser.parse_args()
    build(args) if args.command == "build" else reference(args)


if __name__ == "__main__":
    sys.exit(main())
