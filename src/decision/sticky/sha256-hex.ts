/**
 * SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, as 64 lowercase hex digits: the same value as
 * `crypto.hash('sha256', text)`, computed in JavaScript.
 *
 * Why not node:crypto: OpenSSL's one-shot hash costs 0.3 µs in a loop, far more on a busy decision
 * path. In one sitting under HTTP load (bench/README.md, "Sticky routing without OpenSSL"), the
 * sticky row's main-thread CPU over plain SR fell from 14.1 to 11.9 µs per decision with this
 * function in its place. It stays in V8's compiled code and reuses its buffers.
 * Not for secrets: it is not constant-time, and the key it makes is a pseudonym, not a MAC.
 */
export function sha256Hex(text: string): string {
  const length = encodeUtf8(text);
  // Padding: 0x80, zeros, then the bit length in the last 8 bytes of a 64-byte block.
  const padded = Math.ceil((length + 9) / 64) * 64;
  bytes[length] = 0x80;
  // A loop, not bytes.fill(): for the few bytes of a short id the builtin's call costs more.
  for (let i = length + 1; i < padded - 8; i++) bytes[i] = 0;
  const bits = length * 8;
  // Inputs here are far below 2^32 bits, but the high word is written anyway for any length.
  const high = Math.floor(bits / 0x1_0000_0000);
  view.setUint32(padded - 8, high);
  view.setUint32(padded - 4, bits >>> 0);

  for (let i = 0; i < 8; i++) state[i] = initialState[i]!;
  for (let offset = 0; offset < padded; offset += 64) compress(offset);
  let hex = '';
  for (let i = 0; i < 8; i++) {
    const word = state[i]! >>> 0;
    hex += byteHex[word >>> 24]! + byteHex[(word >>> 16) & 0xff]! + byteHex[(word >>> 8) & 0xff]! + byteHex[word & 0xff]!;
  }
  // A long text's buffer is not kept: the ids hashed on the hot path fit the small one.
  if (bytes.length > maxKeptBytes) resize(initialBytes);
  return hex;
}

const roundConstants = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const initialState = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
const byteHex = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

// One set of buffers for every call: the function is synchronous, so no two calls share them at once.
const state = new Int32Array(8);
const schedule = new Int32Array(64);
const initialBytes = 1024;
const maxKeptBytes = 4096;
let bytes = new Uint8Array(initialBytes);
let view = new DataView(bytes.buffer);

function resize(size: number): void {
  bytes = new Uint8Array(size);
  view = new DataView(bytes.buffer);
}

function ensureCapacity(size: number): void {
  if (bytes.length < size) resize(2 ** Math.ceil(Math.log2(size)));
}

/**
 * Writes `text` as UTF-8 into `bytes` (lone surrogates as U+FFFD, as Node encodes them); returns the
 * byte count. Makes room for the padding too: at most 3 bytes per UTF-16 unit, then at most 72.
 */
function encodeUtf8(text: string): number {
  ensureCapacity(text.length * 3 + 72);
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes[at++] = code;
      continue;
    }
    if (code < 0x800) {
      bytes[at++] = 0xc0 | (code >> 6);
      bytes[at++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
        bytes[at++] = 0xf0 | (code >> 18);
        bytes[at++] = 0x80 | ((code >> 12) & 0x3f);
        bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[at++] = 0x80 | (code & 0x3f);
        continue;
      }
      code = 0xfffd;
    }
    bytes[at++] = 0xe0 | (code >> 12);
    bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
    bytes[at++] = 0x80 | (code & 0x3f);
  }
  return at;
}

/** One 64-byte block at `offset` of `bytes` into `state`. */
function compress(offset: number): void {
  const w = schedule;
  for (let t = 0; t < 16; t++) w[t] = view.getInt32(offset + t * 4);
  for (let t = 16; t < 64; t++) {
    const w15 = w[t - 15]!;
    const w2 = w[t - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let t = 0; t < 64; t++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choice = (e & f) ^ (~e & g);
    const t1 = (h + s1 + choice + roundConstants[t]! + w[t]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}
