// The baseline of bench/hf_tokenizer.sh: Hugging Face's tokenizers (the Rust library as a Node
// addon, scripts/fetch_hf_tokenizers) encoding the same texts, one text per encode() call and all
// at once with encodeBatch(); run with RAYON_NUM_THREADS=1 on one core. Rates are wall-clock
// tokens per second, best of REPEATS.
//
//   node hf_tokenizer_bench.js HF_TOKENIZERS_DIR TOKENIZER.json TEXTS.json [REPEATS=3]
const fs = require('fs');
const [dir, tokenizerPath, textsPath, repeatsArg] = process.argv.slice(2);
const {Tokenizer} = require(dir + '/index.js');

(async () => {
  const tokenizer = await Tokenizer.fromFile(tokenizerPath);
  const texts = JSON.parse(fs.readFileSync(textsPath, 'utf8'));
  const repeats = Number(repeatsArg || 3);
  let tokens = 0, encode = 0, batch = 0;
  for (let r = 0; r < repeats; ++r) {
    const t0 = process.hrtime.bigint();
    let n = 0;
    for (const text of texts) n += (await tokenizer.encode(text)).getIds().length;
    const t1 = process.hrtime.bigint();
    const encodings = await tokenizer.encodeBatch(texts);
    let m = 0;
    for (const e of encodings) m += e.getIds().length;
    const t2 = process.hrtime.bigint();
    tokens = n;
    encode = Math.max(encode, n / (Number(t1 - t0) / 1e9));
    batch = Math.max(batch, m / (Number(t2 - t1) / 1e9));
  }
  console.log(JSON.stringify({
    texts: texts.length,
    tokens,
    encode_tokens_per_s: Math.round(encode),
    encode_batch_tokens_per_s: Math.round(batch)
  }));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
