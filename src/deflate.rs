//! A small deflate encoder (RFC 1951) for share links: LZ77 matches found
//! through hash chains, then one block with Huffman codes fitted to it.
//! Links are a few KB of JSON; this packs them about as well as a full
//! encoder for a fraction of its code (the full one was 9 KB of the gzipped
//! page). Reading stays with `miniz_oxide`'s inflate, which reads any
//! deflate stream.

/// How far back a match may reach (deflate's window).
const WINDOW: usize = 32 * 1024;
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;
/// Candidates tried per position: enough for JSON's repeated keys.
const MAX_CHAIN: usize = 64;
const HASH_BITS: u32 = 13;
const NONE: u32 = u32::MAX;

const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

/// Bits go out least significant first; Huffman codes most significant
/// first, so they are reversed on the way in.
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    fn put(&mut self, value: u32, count: u32) {
        self.acc |= (value as u64) << self.n;
        self.n += count;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    fn code(&mut self, code: u32, len: u32) {
        self.put(code.reverse_bits() >> (32 - len), len);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// The index of the last `base` not above `value`.
fn bucket(bases: &[u16], value: usize) -> usize {
    bases
        .iter()
        .rposition(|b| *b as usize <= value)
        .unwrap_or(0)
}

fn hash(data: &[u8], i: usize) -> usize {
    let v = u32::from(data[i]) | u32::from(data[i + 1]) << 8 | u32::from(data[i + 2]) << 16;
    (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// What LZ77 found at one position: a byte, or a copy of earlier bytes.
#[derive(Clone, Copy)]
enum Token {
    Literal(u8),
    Copy { len: usize, dist: usize },
}

/// Greedy LZ77 with hash chains over a 32 KB window.
fn tokens(data: &[u8]) -> Vec<Token> {
    let mut out = Vec::with_capacity(data.len() / 2);
    let mut head = vec![NONE; 1 << HASH_BITS];
    let mut prev = vec![NONE; data.len()];
    let insert = |i: usize, head: &mut Vec<u32>, prev: &mut Vec<u32>| {
        if i + MIN_MATCH <= data.len() {
            let h = hash(data, i);
            prev[i] = head[h];
            head[h] = i as u32;
        }
    };
    let mut i = 0;
    while i < data.len() {
        let (mut best_len, mut best_dist) = (0, 0);
        if i + MIN_MATCH <= data.len() {
            let mut candidate = head[hash(data, i)];
            let limit = (data.len() - i).min(MAX_MATCH);
            for _ in 0..MAX_CHAIN {
                if candidate == NONE || i - candidate as usize > WINDOW {
                    break;
                }
                let c = candidate as usize;
                let len = data[c..c + limit]
                    .iter()
                    .zip(&data[i..i + limit])
                    .take_while(|(a, b)| a == b)
                    .count();
                if len > best_len {
                    (best_len, best_dist) = (len, i - c);
                    if len == limit {
                        break;
                    }
                }
                candidate = prev[c];
            }
        }
        if best_len >= MIN_MATCH {
            out.push(Token::Copy {
                len: best_len,
                dist: best_dist,
            });
            for j in i..i + best_len {
                insert(j, &mut head, &mut prev);
            }
            i += best_len;
        } else {
            out.push(Token::Literal(data[i]));
            insert(i, &mut head, &mut prev);
            i += 1;
        }
    }
    out
}

/// Huffman code lengths for `freq`, none longer than `limit`: a tree built
/// by merging the two lightest nodes; while it is too deep, the counts are
/// halved (flattening it) and it is built again. Every used symbol gets a
/// length; a lone symbol gets a partner, so the code is always complete.
fn code_lengths(freq: &[u32], limit: u8) -> Vec<u8> {
    let mut freq = freq.to_vec();
    let used: Vec<usize> = (0..freq.len()).filter(|&s| freq[s] > 0).collect();
    let mut lengths = vec![0u8; freq.len()];
    match used.len() {
        0 => {
            lengths[0] = 1;
            lengths[1] = 1;
            return lengths;
        }
        1 => {
            lengths[used[0]] = 1;
            lengths[if used[0] == 0 { 1 } else { 0 }] = 1;
            return lengths;
        }
        _ => {}
    }
    loop {
        // Nodes: (weight, children or the symbol). Leaves first.
        let mut weight: Vec<u64> = used.iter().map(|&s| freq[s] as u64).collect();
        let mut parent = vec![usize::MAX; used.len()];
        let mut alive: Vec<usize> = (0..used.len()).collect();
        while alive.len() > 1 {
            let a = take_lightest(&mut alive, &weight);
            let b = take_lightest(&mut alive, &weight);
            let node = weight.len();
            weight.push(weight[a] + weight[b]);
            parent.push(usize::MAX);
            parent[a] = node;
            parent[b] = node;
            alive.push(node);
        }
        let mut deepest = 0;
        for (leaf, &s) in used.iter().enumerate() {
            let (mut depth, mut n) = (0u8, leaf);
            while parent[n] != usize::MAX {
                n = parent[n];
                depth = depth.saturating_add(1);
            }
            lengths[s] = depth;
            deepest = deepest.max(depth);
        }
        if deepest <= limit {
            return lengths;
        }
        for &s in &used {
            freq[s] = freq[s].div_ceil(2);
        }
    }
}

/// Removes and returns the lightest of `alive` (the first of equals).
fn take_lightest(alive: &mut Vec<usize>, weight: &[u64]) -> usize {
    let mut best = 0;
    for (i, &n) in alive.iter().enumerate() {
        if weight[n] < weight[alive[best]] {
            best = i;
        }
    }
    alive.swap_remove(best)
}

/// Canonical codes for `lengths` (RFC 1951, 3.2.2).
fn canonical(lengths: &[u8]) -> Vec<u32> {
    let mut count = [0u32; 16];
    for &l in lengths.iter().filter(|l| **l > 0) {
        count[l as usize] += 1;
    }
    let mut next = [0u32; 16];
    let mut code = 0;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c
        })
        .collect()
}

/// The order the code-length code's lengths are sent in.
const CL_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Code lengths as the code-length alphabet sends them: 0 to 15 as they
/// are, runs of zeros as 17 (3 to 10) or 18 (11 to 138).
fn run_length(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lengths.len() {
        let zeros = lengths[i..].iter().take_while(|l| **l == 0).count();
        if zeros >= 11 {
            let n = zeros.min(138);
            out.push((18, (n - 11) as u8));
            i += n;
        } else if zeros >= 3 {
            out.push((17, (zeros - 3) as u8));
            i += zeros;
        } else {
            out.push((lengths[i], 0));
            i += 1;
        }
    }
    out
}

/// `data` as a raw deflate stream: one block with codes fitted to it.
pub fn compress(data: &[u8]) -> Vec<u8> {
    let tokens = tokens(data);
    let mut lit_freq = vec![0u32; 286];
    let mut dist_freq = vec![0u32; 30];
    lit_freq[256] = 1;
    for t in &tokens {
        match *t {
            Token::Literal(b) => lit_freq[b as usize] += 1,
            Token::Copy { len, dist } => {
                lit_freq[257 + bucket(&LENGTH_BASE, len)] += 1;
                dist_freq[bucket(&DIST_BASE, dist)] += 1;
            }
        }
    }
    let lit_len = code_lengths(&lit_freq, 15);
    let dist_len = code_lengths(&dist_freq, 15);
    let hlit = 257.max(lit_len.iter().rposition(|l| *l > 0).unwrap_or(0) + 1);
    let hdist = 1.max(dist_len.iter().rposition(|l| *l > 0).unwrap_or(0) + 1);
    let all: Vec<u8> = lit_len[..hlit]
        .iter()
        .chain(&dist_len[..hdist])
        .copied()
        .collect();
    let runs = run_length(&all);
    let mut cl_freq = vec![0u32; 19];
    for (sym, _) in &runs {
        cl_freq[*sym as usize] += 1;
    }
    let cl_len = code_lengths(&cl_freq, 7);
    let hclen = 4.max(CL_ORDER.iter().rposition(|&s| cl_len[s] > 0).unwrap_or(0) + 1);
    let (lit_code, dist_code, cl_code) = (
        canonical(&lit_len),
        canonical(&dist_len),
        canonical(&cl_len),
    );

    let mut bits = Bits {
        out: Vec::with_capacity(data.len() / 2 + 64),
        acc: 0,
        n: 0,
    };
    bits.put(1, 1); // the final block
    bits.put(2, 2); // codes of its own
    bits.put((hlit - 257) as u32, 5);
    bits.put((hdist - 1) as u32, 5);
    bits.put((hclen - 4) as u32, 4);
    for &s in &CL_ORDER[..hclen] {
        bits.put(cl_len[s] as u32, 3);
    }
    for (sym, extra) in runs {
        let s = sym as usize;
        bits.code(cl_code[s], cl_len[s] as u32);
        match sym {
            17 => bits.put(extra as u32, 3),
            18 => bits.put(extra as u32, 7),
            _ => {}
        }
    }
    let literal = |bits: &mut Bits, s: usize| bits.code(lit_code[s], lit_len[s] as u32);
    for t in tokens {
        match t {
            Token::Literal(b) => literal(&mut bits, b as usize),
            Token::Copy { len, dist } => {
                let l = bucket(&LENGTH_BASE, len);
                literal(&mut bits, 257 + l);
                bits.put(
                    (len - LENGTH_BASE[l] as usize) as u32,
                    LENGTH_EXTRA[l] as u32,
                );
                let d = bucket(&DIST_BASE, dist);
                bits.code(dist_code[d], dist_len[d] as u32);
                bits.put((dist - DIST_BASE[d] as usize) as u32, DIST_EXTRA[d] as u32);
            }
        }
    }
    literal(&mut bits, 256); // end of block
    bits.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use workqueue_core::rng::Rng;

    fn inflate(packed: &[u8]) -> Vec<u8> {
        miniz_oxide::inflate::decompress_to_vec(packed).expect("a valid deflate stream")
    }

    #[test]
    fn round_trips_through_a_standard_inflate() {
        let mut rng = Rng::new(7);
        let words = [
            "\"key\":",
            "\"ns/pod-",
            "{",
            "}",
            ",",
            "[",
            "]",
            "0",
            "1",
            "42",
            "\"type\":\"bucket\"",
            "é",
            "\u{1F600}",
        ];
        for case in 0..400 {
            let data: Vec<u8> = match case % 3 {
                // Random bytes: little to match.
                0 => (0..rng.next_u64() % 3000)
                    .map(|_| rng.next_u64() as u8)
                    .collect(),
                // Long runs: matches that overlap themselves, at the longest length.
                1 => vec![b'a' + (case % 26) as u8; (rng.next_u64() % 70_000) as usize],
                // JSON-like text with repeats near and far (past the window too).
                _ => (0..rng.next_u64() % 12_000)
                    .map(|_| words[(rng.next_u64() % words.len() as u64) as usize])
                    .collect::<String>()
                    .into_bytes(),
            };
            assert_eq!(inflate(&compress(&data)), data, "case {case}");
        }
        assert_eq!(inflate(&compress(b"")), b"");
    }

    #[test]
    fn packs_json_close_to_a_full_encoder() {
        let json = workqueue_core::Scenario::failing_keys(
            workqueue_core::LimiterConfig::DefaultController,
            10,
        )
        .to_json()
        .repeat(4);
        let ours = compress(json.as_bytes()).len();
        let full = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9).len();
        println!("ours {ours}, full {full}, json {}", json.len());
        assert!(ours * 10 < json.len() * 4, "{ours} of {} bytes", json.len());
        assert!(ours * 10 <= full * 11, "ours {ours}, a full encoder {full}");
    }
}
