"""NeMo Curator's BandwidthEstimationStage._estimate_bandwidth, written from its source with
numpy alone (librosa's stft with center=True and pad_mode "constant", scipy's periodic
Blackman-Harris window, power_to_db with ref=n_fft, amin=1e-10, top_db) for winnow's test.
Usage: audio_bandwidth_reference.py FILE.wav [n_fft stride top_db threshold]; a 16-bit WAV,
its channels averaged (librosa.load's mono). Prints the bandwidth, then the dB per bin."""
import sys
import wave

import numpy as np

path = sys.argv[1]
n_fft, stride, top_db, threshold = 512, 0.01, 100.0, -50.0
if len(sys.argv) > 2:
    n_fft, stride, top_db, threshold = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
with wave.open(path) as w:
    rate, channels = w.getframerate(), w.getnchannels()
    pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768.0
audio = pcm.reshape(-1, channels).mean(axis=1)
hop = int(rate * stride)
padded = np.pad(audio, n_fft // 2, mode="constant")
frames = 1 + (len(padded) - n_fft) // hop
n = np.arange(n_fft)
x = 2 * np.pi * n / n_fft
window = 0.35875 - 0.48829 * np.cos(x) + 0.14128 * np.cos(2 * x) - 0.01168 * np.cos(3 * x)
spectra = np.array([np.fft.rfft(window * padded[f * hop:f * hop + n_fft]) for f in range(frames)])
power = np.mean(np.abs(spectra) ** 2, axis=0)
db = 10 * np.log10(np.maximum(1e-10, power)) - 10 * np.log10(max(1e-10, n_fft))
db = np.maximum(db, db.max() - top_db)
bandwidth = 0
peak = db.max()
for idx in range(len(db) - 1, -1, -1):
    if db[idx] - peak > threshold:
        bandwidth = idx * rate / n_fft
        break
print(int(bandwidth))
print(" ".join(repr(float(v)) for v in db))
