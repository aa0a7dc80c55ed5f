#!/usr/bin/python3
"""Silero VAD's get_speech_timestamps, from its published description and code (snakers4/
silero-vad, src/silero_vad/utils_vad.py), written out again from the probabilities on: the
model's per-window speech probabilities are given, so no model runs. The reference for
media/speech_timestamps.cpp.

  speech_timestamps_reference.py CASES
    CASES: one case a line, "length rate window threshold neg_threshold min_speech_ms
    max_speech_s min_silence_ms speech_pad_ms use_max_possible | p0 p1 ..." (neg_threshold
    below 0: the default; max_speech_s 0: none).
    Prints per case one line, "start end start end ..." (samples), or an empty line.
"""
import sys


def timestamps(probs, length, rate, window, threshold, neg_threshold, min_speech_ms,
               max_speech_s, min_silence_ms, speech_pad_ms, use_max):
    min_speech_samples = rate * min_speech_ms / 1000
    speech_pad_samples = rate * speech_pad_ms / 1000
    max_speech_samples = rate * max_speech_s - window - 2 * speech_pad_samples
    min_silence_samples = rate * min_silence_ms / 1000
    min_silence_samples_at_max_speech = rate * 98 / 1000
    if neg_threshold is None:
        neg_threshold = max(threshold - 0.15, 0.01)
    triggered = False
    speeches = []
    current = {}
    temp_end = 0
    prev_end = next_start = 0
    possible_ends = []
    for i, p in enumerate(probs):
        if p >= threshold and temp_end:
            sil_dur = window * i - temp_end
            if sil_dur > min_silence_samples_at_max_speech:
                possible_ends.append((temp_end, sil_dur))
            temp_end = 0
            if next_start < prev_end:
                next_start = window * i
        if p >= threshold and not triggered:
            triggered = True
            current["start"] = window * i
            continue
        if triggered and window * i - current["start"] > max_speech_samples:
            if possible_ends:
                if use_max:
                    prev_end, dur = max(possible_ends, key=lambda x: x[1])
                else:
                    prev_end, dur = possible_ends[-1]
                current["end"] = prev_end
                speeches.append(current)
                current = {}
                next_start = prev_end + dur
                if next_start < prev_end + window * i:
                    current["start"] = next_start
                else:
                    triggered = False
                possible_ends = [e for e in possible_ends if e[0] > next_start]
                prev_end = next_start = temp_end = 0
            else:
                current["end"] = window * i
                speeches.append(current)
                current = {}
                prev_end = next_start = temp_end = 0
                triggered = False
                possible_ends = []
                continue
        if p < neg_threshold and triggered:
            if not temp_end:
                temp_end = window * i
            if window * i - temp_end < min_silence_samples:
                continue
            current["end"] = temp_end
            if current["end"] - current["start"] > min_speech_samples:
                speeches.append(current)
            current = {}
            prev_end = next_start = temp_end = 0
            triggered = False
            possible_ends = []
            continue
    if current and length - current["start"] > min_speech_samples:
        current["end"] = length
        speeches.append(current)
    for i, s in enumerate(speeches):
        if i == 0:
            s["start"] = int(max(0, s["start"] - speech_pad_samples))
        if i != len(speeches) - 1:
            gap = speeches[i + 1]["start"] - s["end"]
            if gap < 2 * speech_pad_samples:
                s["end"] += int(gap // 2)
                speeches[i + 1]["start"] = int(max(0, speeches[i + 1]["start"] - gap // 2))
            else:
                s["end"] = int(min(length, s["end"] + speech_pad_samples))
                speeches[i + 1]["start"] = int(max(0, speeches[i + 1]["start"] - speech_pad_samples))
        else:
            s["end"] = int(min(length, s["end"] + speech_pad_samples))
    return speeches


def main():
    for line in open(sys.argv[1]):
        head, probs = line.split("|")
        f = head.split()
        length, rate, window = int(f[0]), int(f[1]), int(f[2])
        neg = float(f[4])
        max_s = float(f[6])
        spans = timestamps([float(p) for p in probs.split()], length, rate, window, float(f[3]),
                           None if neg < 0 else neg, float(f[5]),
                           float("inf") if max_s == 0 else max_s, float(f[7]), float(f[8]),
                           f[9] == "1")
        print(" ".join(f"{s['start']} {s['end']}" for s in spans))


main()
