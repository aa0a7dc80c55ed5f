#!/usr/bin/python3
"""NeMo's FilterbankFeatures (AudioToMelSpectrogramPreprocessor) at inference, in numpy: the
reference for media/log_mel.cpp. Run with /usr/bin/python3 (numpy).

  log_mel_reference.py RAW RATE WIN HOP N_FFT N_MELS WINDOW NORMALIZE
    RAW: float32 mono samples. Prints the features, one mel band a line.
"""
import sys

import numpy as np


def mel_filters(sr, n_fft, n_mels, fmin, fmax):
    # librosa.filters.mel(htk=False, norm="slaney"), from librosa's documented formulas.
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    min_log_mel, logstep = min_log_hz / f_sp, np.log(6.4) / 27.0

    def to_mel(f):
        f = np.asanyarray(f, dtype=np.float64)
        return np.where(f >= min_log_hz, min_log_mel + np.log(np.maximum(f, 1e-12) / min_log_hz) / logstep, f / f_sp)

    def to_hz(m):
        return np.where(m >= min_log_mel, min_log_hz * np.exp(logstep * (m - min_log_mel)), f_sp * m)

    fft_freqs = np.fft.rfftfreq(n_fft, 1.0 / sr)
    mel_f = to_hz(np.linspace(to_mel(fmin), to_mel(fmax), n_mels + 2))
    fdiff = np.diff(mel_f)
    ramps = mel_f[:, None] - fft_freqs[None, :]
    weights = np.zeros((n_mels, len(fft_freqs)))
    for i in range(n_mels):
        lower = -ramps[i] / fdiff[i]
        upper = ramps[i + 2] / fdiff[i + 1]
        weights[i] = np.maximum(0, np.minimum(lower, upper))
    weights *= (2.0 / (mel_f[2:n_mels + 2] - mel_f[:n_mels]))[:, None]
    return weights


def features(x, sr, win, hop, n_fft, n_mels, window, normalize):
    x = x.astype(np.float64)
    x = np.concatenate([x[:1], x[1:] - 0.97 * x[:-1]])
    n = np.arange(win)
    if window == "hann":
        w = 0.5 - 0.5 * np.cos(2 * np.pi * n / (win - 1))
    elif window == "hamming":
        w = 0.54 - 0.46 * np.cos(2 * np.pi * n / (win - 1))
    else:
        w = np.ones(win)
    left = (n_fft - win) // 2
    full = np.zeros(n_fft)
    full[left:left + win] = w
    padded = np.pad(x, (n_fft // 2, n_fft // 2))
    frames = 1 + (len(padded) - n_fft) // hop  # torch.stft's, centred
    spec = np.stack([np.abs(np.fft.rfft(padded[t * hop:t * hop + n_fft] * full)) ** 2
                     for t in range(frames)], axis=1)
    mel = np.log(mel_filters(sr, n_fft, n_mels, 0.0, sr / 2.0) @ spec + 2.0 ** -24)
    keep = len(x) // hop  # get_seq_len: (len + n_fft // 2 * 2 - n_fft) // hop
    mel = mel[:, :keep]
    if normalize == "per_feature":
        mean = mel.mean(axis=1, keepdims=True)
        std = mel.std(axis=1, ddof=1, keepdims=True) if keep > 1 else np.zeros_like(mean)
        mel = (mel - mean) / (std + 1e-5)
    return mel


def main():
    a = sys.argv
    x = np.fromfile(a[1], dtype=np.float32)
    mel = features(x, int(a[2]), int(a[3]), int(a[4]), int(a[5]), int(a[6]), a[7], a[8])
    for row in mel:
        print(" ".join(repr(float(v)) for v in row))


if __name__ == "__main__":
    main()
