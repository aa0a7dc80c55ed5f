// Token ids from Hugging Face's own tokenizers library (the Rust implementation as a Node addon,
// fetched by scripts/fetch_hf_tokenizers): the reference the tokenizer tests compare with.
//
//   node hf_tokenize.js HF_TOKENIZERS_DIR tokenizer.json texts.json out.json [no_special_tokens]
//
// texts.json: an array of strings; out.json: an array of id arrays, one per text, from
// encode(text) with special tokens (and the tokenizer.json's own truncation), or without them
// given no_special_tokens (add_special_tokens=False).
const fs = require('fs');
const [dir, tokenizerPath, textsPath, outPath, specials] = process.argv.slice(2);
const options = {
  addSpecialTokens: specials !== 'no_special_tokens'
};
const {Tokenizer} = require(dir + '/index.js');

(async () => {
  const tokenizer = await Tokenizer.fromFile(tokenizerPath);
  const texts = JSON.parse(fs.readFileSync(textsPath, 'utf8'));
  const out = [];
  for (const text of texts)
    out.push(Array.from((await tokenizer.encode(text, null, options)).getIds()));
  fs.writeFileSync(outPath, JSON.stringify(out));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
