// bzip2, as `bzip2 -c` writes it (900k blocks): run-length coding of the input, the
// Burrows-Wheeler transform (cyclic rotations sorted by prefix doubling), move-to-front with
// RUNA/RUNB zero runs, and 2 to 6 Huffman tables chosen per 50 symbols, refined four times.

const BZ_BLOCK_MAX = 100000 * 9 - 19;

const BZ_CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[i] = c >>> 0;
  }
  return t;
})();

class BitWriter {
  #buf = new Uint8Array(4096);
  #len = 0;
  #acc = 0;
  #bits = 0;

  /** Writes the low `n` bits of `value`, most significant first; `n` at most 24. */
  write(n: number, value: number): void {
    this.#acc = (this.#acc << n) | (value & ((1 << n) - 1));
    this.#bits += n;
    while (this.#bits >= 8) {
      this.#bits -= 8;
      this.#byte((this.#acc >>> this.#bits) & 0xff);
    }
    this.#acc &= (1 << this.#bits) - 1;
  }

  write32(value: number): void {
    this.write(16, value >>> 16);
    this.write(16, value & 0xffff);
  }

  #byte(b: number): void {
    if (this.#len === this.#buf.length) {
      const next = new Uint8Array(this.#buf.length * 2);
      next.set(this.#buf);
      this.#buf = next;
    }
    this.#buf[this.#len++] = b;
  }

  finish(): Uint8Array {
    if (this.#bits > 0) this.write(8 - this.#bits, 0);
    return this.#buf.slice(0, this.#len);
  }
}

export function bzip2(input: Uint8Array): Uint8Array {
  const w = new BitWriter();
  w.write(8, 0x42); // 'B'
  w.write(8, 0x5a); // 'Z'
  w.write(8, 0x68); // 'h'
  w.write(8, 0x39); // '9'
  const block = new Uint8Array(BZ_BLOCK_MAX);
  let n = 0;
  let crc = 0xffffffff;
  let combined = 0;
  const flush = () => {
    const blockCrc = ~crc >>> 0;
    combined = (((combined << 1) | (combined >>> 31)) ^ blockCrc) >>> 0;
    writeBlock(w, block.subarray(0, n), blockCrc);
    n = 0;
    crc = 0xffffffff;
  };
  for (let i = 0; i < input.length; ) {
    const ch = input[i]!;
    let run = 1;
    while (run < 255 && i + run < input.length && input[i + run] === ch) run++;
    if (n + (run < 4 ? run : 5) > BZ_BLOCK_MAX) flush();
    for (let k = 0; k < run; k++) crc = ((crc << 8) ^ BZ_CRC_TABLE[((crc >>> 24) ^ ch) & 0xff]!) >>> 0;
    if (run < 4) for (let k = 0; k < run; k++) block[n++] = ch;
    else {
      block[n++] = ch;
      block[n++] = ch;
      block[n++] = ch;
      block[n++] = ch;
      block[n++] = run - 4;
    }
    i += run;
  }
  if (n > 0) flush();
  for (const b of [0x17, 0x72, 0x45, 0x38, 0x50, 0x90]) w.write(8, b);
  w.write32(combined);
  return w.finish();
}

/** The rotations of `block` in sorted order (their start indices). */
function sortRotations(block: Uint8Array): Int32Array {
  const n = block.length;
  const p = new Int32Array(n);
  let c = new Int32Array(n);
  const pn = new Int32Array(n);
  let cn = new Int32Array(n);
  const count = new Int32Array(Math.max(256, n));
  for (let i = 0; i < n; i++) count[block[i]!]! += 1;
  for (let i = 1; i < 256; i++) count[i]! += count[i - 1]!;
  for (let i = n - 1; i >= 0; i--) p[--count[block[i]!]!] = i;
  let classes = 1;
  c[p[0]!] = 0;
  for (let i = 1; i < n; i++) {
    if (block[p[i]!] !== block[p[i - 1]!]) classes++;
    c[p[i]!] = classes - 1;
  }
  for (let k = 1; k < n && classes < n; k <<= 1) {
    for (let i = 0; i < n; i++) {
      const v = p[i]! - k;
      pn[i] = v < 0 ? v + n : v;
    }
    count.fill(0, 0, classes);
    for (let i = 0; i < n; i++) count[c[pn[i]!]!]! += 1;
    for (let i = 1; i < classes; i++) count[i]! += count[i - 1]!;
    for (let i = n - 1; i >= 0; i--) p[--count[c[pn[i]!]!]!] = pn[i]!;
    cn[p[0]!] = 0;
    classes = 1;
    for (let i = 1; i < n; i++) {
      const a = p[i]!;
      const b = p[i - 1]!;
      const a2 = a + k >= n ? a + k - n : a + k;
      const b2 = b + k >= n ? b + k - n : b + k;
      if (c[a] !== c[b] || c[a2] !== c[b2]) classes++;
      cn[a] = classes - 1;
    }
    [c, cn] = [cn, c];
  }
  return p;
}

/** BZ2_hbMakeCodeLengths: Huffman code lengths no longer than `maxLen`, every symbol coded. */
function codeLengths(freq: ArrayLike<number>, alphaSize: number, maxLen: number): Uint8Array {
  const lengths = new Uint8Array(alphaSize);
  const f = Array.from({ length: alphaSize }, (_, i) => freq[i] || 1);
  for (;;) {
    const weight: number[] = [...f];
    const depth: number[] = new Array(alphaSize).fill(0);
    const parent: number[] = new Array(alphaSize).fill(-1);
    const active: number[] = f.map((_, i) => i);
    const takeMin = () => {
      let best = 0;
      for (let i = 1; i < active.length; i++) {
        const a = active[i]!;
        const b = active[best]!;
        if (weight[a]! < weight[b]! || (weight[a] === weight[b] && depth[a]! < depth[b]!)) best = i;
      }
      return active.splice(best, 1)[0]!;
    };
    while (active.length > 1) {
      const a = takeMin();
      const b = takeMin();
      const k = weight.length;
      weight.push(weight[a]! + weight[b]!);
      depth.push(1 + Math.max(depth[a]!, depth[b]!));
      parent.push(-1);
      parent[a] = k;
      parent[b] = k;
      active.push(k);
    }
    let tooLong = false;
    for (let i = 0; i < alphaSize; i++) {
      let len = 0;
      for (let j = i; parent[j] !== -1; j = parent[j]!) len++;
      lengths[i] = len;
      if (len > maxLen) tooLong = true;
    }
    if (!tooLong) return lengths;
    for (let i = 0; i < alphaSize; i++) f[i] = 1 + Math.floor(f[i]! / 2);
  }
}

function writeBlock(w: BitWriter, block: Uint8Array, blockCrc: number): void {
  const n = block.length;
  const order = sortRotations(block);
  let origPtr = 0;
  const inUse = new Uint8Array(256);
  for (let i = 0; i < n; i++) inUse[block[i]!] = 1;
  const unseqToSeq = new Uint8Array(256);
  let nInUse = 0;
  for (let i = 0; i < 256; i++) if (inUse[i]) unseqToSeq[i] = nInUse++;

  // Move-to-front of the last column, zero runs as RUNA (0) / RUNB (1), values shifted by one.
  const eob = nInUse + 1;
  const alphaSize = nInUse + 2;
  const mtfv = new Uint16Array(n + 1);
  const mtfFreq = new Int32Array(alphaSize);
  const yy = new Uint8Array(nInUse);
  for (let i = 0; i < nInUse; i++) yy[i] = i;
  let nMTF = 0;
  let zPend = 0;
  const flushZeros = () => {
    if (zPend === 0) return;
    zPend--;
    for (;;) {
      const sym = zPend & 1;
      mtfv[nMTF++] = sym;
      mtfFreq[sym]! += 1;
      if (zPend < 2) break;
      zPend = (zPend - 2) >> 1;
    }
    zPend = 0;
  };
  for (let i = 0; i < n; i++) {
    const start = order[i]!;
    if (start === 0) origPtr = i;
    const ll = unseqToSeq[block[start === 0 ? n - 1 : start - 1]!]!;
    if (yy[0] === ll) {
      zPend++;
      continue;
    }
    flushZeros();
    let j = 1;
    while (yy[j] !== ll) j++;
    yy.copyWithin(1, 0, j);
    yy[0] = ll;
    mtfv[nMTF++] = j + 1;
    mtfFreq[j + 1]! += 1;
  }
  flushZeros();
  mtfv[nMTF++] = eob;
  mtfFreq[eob]! += 1;

  // Tables: an initial split of the symbols by frequency, then four rounds of choosing the best
  // table for each group of 50 symbols and recomputing the tables from those choices.
  const nGroups = nMTF < 200 ? 2 : nMTF < 600 ? 3 : nMTF < 1200 ? 4 : nMTF < 2400 ? 5 : 6;
  const len: Uint8Array[] = Array.from({ length: nGroups }, () => new Uint8Array(alphaSize));
  {
    let nPart = nGroups;
    let remF = nMTF;
    let gs = 0;
    while (nPart > 0) {
      const tFreq = Math.floor(remF / nPart);
      let ge = gs - 1;
      let aFreq = 0;
      while (aFreq < tFreq && ge < alphaSize - 1) aFreq += mtfFreq[++ge]!;
      if (ge > gs && nPart !== nGroups && nPart !== 1 && (nGroups - nPart) % 2 === 1) aFreq -= mtfFreq[ge--]!;
      for (let v = 0; v < alphaSize; v++) len[nPart - 1]![v] = v >= gs && v <= ge ? 0 : 15;
      nPart--;
      gs = ge + 1;
      remF -= aFreq;
    }
  }
  const nSelectors = Math.ceil(nMTF / 50);
  const selectors = new Uint8Array(nSelectors);
  for (let iter = 0; iter < 4; iter++) {
    const rfreq = Array.from({ length: nGroups }, () => new Int32Array(alphaSize));
    for (let s = 0, gs = 0; gs < nMTF; s++, gs += 50) {
      const ge = Math.min(gs + 50, nMTF);
      let bt = 0;
      let bc = Infinity;
      for (let t = 0; t < nGroups; t++) {
        const l = len[t]!;
        let cost = 0;
        for (let i = gs; i < ge; i++) cost += l[mtfv[i]!]!;
        if (cost < bc) {
          bc = cost;
          bt = t;
        }
      }
      selectors[s] = bt;
      const r = rfreq[bt]!;
      for (let i = gs; i < ge; i++) r[mtfv[i]!]! += 1;
    }
    for (let t = 0; t < nGroups; t++) len[t] = codeLengths(rfreq[t]!, alphaSize, 17);
  }
  const codes = len.map((l) => {
    const code = new Int32Array(alphaSize);
    let vec = 0;
    for (let size = 1; size <= 20; size++) {
      for (let i = 0; i < alphaSize; i++) if (l[i] === size) code[i] = vec++;
      vec <<= 1;
    }
    return code;
  });

  for (const b of [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]) w.write(8, b);
  w.write32(blockCrc);
  w.write(1, 0); // not randomised
  w.write(24, origPtr);
  const inUse16 = Array.from({ length: 16 }, (_, i) => inUse.subarray(i * 16, i * 16 + 16).some((x) => x === 1));
  for (const used of inUse16) w.write(1, used ? 1 : 0);
  for (let i = 0; i < 16; i++) if (inUse16[i]) for (let j = 0; j < 16; j++) w.write(1, inUse[i * 16 + j]!);
  w.write(3, nGroups);
  w.write(15, nSelectors);
  const pos = Array.from({ length: nGroups }, (_, i) => i);
  for (let s = 0; s < nSelectors; s++) {
    const j = pos.indexOf(selectors[s]!);
    pos.splice(j, 1);
    pos.unshift(selectors[s]!);
    for (let k = 0; k < j; k++) w.write(1, 1);
    w.write(1, 0);
  }
  for (const l of len) {
    let curr = l[0]!;
    w.write(5, curr);
    for (let i = 0; i < alphaSize; i++) {
      while (curr < l[i]!) {
        w.write(2, 2);
        curr++;
      }
      while (curr > l[i]!) {
        w.write(2, 3);
        curr--;
      }
      w.write(1, 0);
    }
  }
  for (let s = 0, gs = 0; gs < nMTF; s++, gs += 50) {
    const t = selectors[s]!;
    const l = len[t]!;
    const code = codes[t]!;
    const ge = Math.min(gs + 50, nMTF);
    for (let i = gs; i < ge; i++) w.write(l[mtfv[i]!]!, code[mtfv[i]!]!);
  }
}
