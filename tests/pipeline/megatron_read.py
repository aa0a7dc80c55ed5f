#!/usr/bin/env python3
"""An independent reader of Megatron-LM indexed datasets, for winnow's tests: written from the
format as Megatron-LM's megatron/core/datasets/indexed_dataset.py lays it out, standard library
only (no numpy, no Megatron).

    megatron_read.py PREFIX [PREFIX ...]   prints one JSON line per PREFIX

<PREFIX>.idx: b"MMIDIDX\\x00\\x00", version (<Q, 1), dtype code (<B), sequence count (<Q),
document count (<Q), sequence lengths (<i4 each), sequence byte offsets into .bin (<i8 each),
document indices (<i8 each: 0, then the sequence count after each document).
<PREFIX>.bin: the sequences' token ids back to back in that dtype, little-endian.

Checks what Megatron's reader relies on (magic, version, sizes, offsets that follow from the
lengths, document indices that start at 0, never decrease and end at the sequence count) and
prints {"dtype": code, "sequences": [lengths], "documents": [[ids of a document], ...]}.
"""
import json
import struct
import sys

# Megatron's DType codes: uint8, int8, int16, int32, int64, float64, float32, uint16.
FORMATS = {1: "B", 2: "b", 3: "h", 4: "i", 5: "q", 6: "d", 7: "f", 8: "H"}


def read(prefix):
    with open(prefix + ".idx", "rb") as f:
        idx = f.read()
    with open(prefix + ".bin", "rb") as f:
        data = f.read()
    if idx[:9] != b"MMIDIDX\x00\x00":
        raise ValueError(prefix + ".idx: bad magic")
    (version,) = struct.unpack_from("<Q", idx, 9)
    if version != 1:
        raise ValueError("version %d" % version)
    (code,) = struct.unpack_from("<B", idx, 17)
    sequences, documents = struct.unpack_from("<QQ", idx, 18)
    offset = 34
    lengths = struct.unpack_from("<%di" % sequences, idx, offset)
    offset += 4 * sequences
    pointers = struct.unpack_from("<%dq" % sequences, idx, offset)
    offset += 8 * sequences
    document_indices = struct.unpack_from("<%dq" % documents, idx, offset)
    offset += 8 * documents
    if offset != len(idx):
        raise ValueError("%d bytes after the document indices" % (len(idx) - offset))
    fmt = FORMATS[code]
    width = struct.calcsize("<" + fmt)
    at = 0
    for length, pointer in zip(lengths, pointers):
        if pointer != at or length < 0:
            raise ValueError("sequence offset %d, expected %d" % (pointer, at))
        at += length * width
    if at != len(data):
        raise ValueError(".bin holds %d bytes, the index %d" % (len(data), at))
    if not document_indices or document_indices[0] != 0 or document_indices[-1] != sequences:
        raise ValueError("document indices %r" % (document_indices[:3],))
    if any(b < a for a, b in zip(document_indices, document_indices[1:])):
        raise ValueError("document indices decrease")
    ids = [list(struct.unpack_from("<%d%s" % (n, fmt), data, p)) for n, p in zip(lengths, pointers)]
    docs = []
    for start, end in zip(document_indices, document_indices[1:]):
        doc = []
        for sequence in ids[start:end]:
            doc.extend(sequence)
        docs.append(doc)
    return {"dtype": code, "sequences": list(lengths), "documents": docs}


if __name__ == "__main__":
    for prefix in sys.argv[1:]:
        print(json.dumps(read(prefix)))
