//! Sets to `V` (default 0) every weight of a TC-trained network that no training step moved:
//! the weights whose accumulator `A` (the sum of absolute errors, [`Coherence`]) is still 0.
//! With an optimistic start those weights still hold the start value, which a deep search
//! can be drawn to; drop7-bench reports zeroing them gained 29k at depth 3 (and cost at
//! depth 4). A screen, not a verb: the weight file written keeps the input's header.
//!
//! ```text
//! cargo run --release -p drop7 --example zero_unvisited -- tc.d7n tc.d7n.tc zeroed.d7n [V]
//! ```
//!
//! Memory: the network twice for a moment (8 GB for the exact anchor); the accumulator file
//! is streamed and its checksum checked.
//!
//! [`Coherence`]: drop7::search::ntuple::Coherence

use std::io::{BufReader, Read};

use drop7::search::ntuple::{self, NTuple, MAGIC_TC, VERSION_TC};

fn main() {
    if let Err(e) = run() {
        eprintln!("zero_unvisited: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !(3..=4).contains(&args.len()) {
        return Err("usage: zero_unvisited WEIGHTS TC OUT [V]".into());
    }
    let value: f32 = match args.get(3) {
        Some(v) => v.parse().map_err(|_| format!("V: {v:?} is not a number"))?,
        None => 0.0,
    };
    let bytes = std::fs::read(&args[0]).map_err(|e| format!("{}: {e}", args[0]))?;
    let (net, meta) = ntuple::decode(&bytes).map_err(|e| format!("{}: {e}", args[0]))?;
    drop(bytes);
    let shape = *net.shape();
    let fingerprint = net.fingerprint();
    let mut weights = net.weights().to_vec();
    drop(net);

    let file = std::fs::File::open(&args[1]).map_err(|e| format!("{}: {e}", args[1]))?;
    let mut r = BufReader::with_capacity(1 << 20, file);
    let mut fnv = ntuple::Fnv::new();
    let mut header = [0u8; 36];
    r.read_exact(&mut header).map_err(|e| format!("{}: header: {e}", args[1]))?;
    fnv.write(&header);
    let word = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("8 bytes"));
    if header[..8] != MAGIC_TC || header[8..12] != VERSION_TC.to_le_bytes() {
        return Err(format!("{}: not a Drop7 TC accumulator file", args[1]));
    }
    if word(12) != meta.games || word(20) != fingerprint || word(28) != weights.len() as u64 {
        return Err(format!("{}: not the accumulators of {}", args[1], args[0]));
    }
    let mut buf = vec![0u8; 8 << 16];
    let (mut at, mut zeroed) = (0usize, 0u64);
    while at < weights.len() {
        let n = (weights.len() - at).min(1 << 16);
        r.read_exact(&mut buf[..8 * n]).map_err(|e| format!("{}: {e}", args[1]))?;
        fnv.write(&buf[..8 * n]);
        for (i, pair) in buf[..8 * n].chunks_exact(8).enumerate() {
            let a = f32::from_le_bytes(pair[4..].try_into().expect("4 bytes"));
            if a == 0.0 {
                weights[at + i] = value;
                zeroed += 1;
            }
        }
        at += n;
    }
    let mut sum = [0u8; 8];
    r.read_exact(&mut sum).map_err(|e| format!("{}: checksum: {e}", args[1]))?;
    if u64::from_le_bytes(sum) != fnv.finish() {
        return Err(format!("{}: bad checksum", args[1]));
    }
    let net = NTuple::from_weights(shape, weights).expect("the weights of the shape");
    let out = std::fs::File::create(&args[2]).map_err(|e| format!("{}: {e}", args[2]))?;
    ntuple::write_to(&net, &meta, std::io::BufWriter::with_capacity(1 << 20, out))
        .map_err(|e| format!("{}: {e}", args[2]))?;
    let total = net.weights().len();
    println!(
        "set {zeroed} of {total} weights ({:.1}%) to {value}; wrote {}",
        100.0 * zeroed as f64 / total as f64,
        args[2]
    );
    Ok(())
}
