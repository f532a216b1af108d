//! `train`: the move-ordering weights fitted with a seeded (1+lambda) evolution strategy.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{line_counts, parse_weight_vector, queue_pieces, Control, Error, Progress};
use crate::bag::opener_queue;
use crate::solver::{PcRequest, Solver, Weights, N_FEATURES};
use crate::KickTable;

/// A training request (`bitarcade tetris train`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct TrainRequest {
    /// Training queues per line count (disjoint from the benchmark's: seed S + 1000).
    pub queues: u64,
    /// Generations of the (1+lambda) evolution strategy.
    pub generations: u32,
    /// Offspring per generation.
    pub lambda: u32,
    /// Train on 4-line queues, 6-line queues, or both (0).
    pub lines: u32,
    /// Starting weights (as for [`BenchRequest::weights`](super::BenchRequest::weights)).
    pub start: String,
    /// Seed of the strategy (the training queues use seed + 1000).
    pub seed: u64,
}

impl Default for TrainRequest {
    fn default() -> Self {
        TrainRequest {
            queues: 120,
            generations: 20,
            lambda: 8,
            lines: 0,
            start: "hand".into(),
            seed: 1,
        }
    }
}

/// One generation of the log (fields in the order `train --json` prints them).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrainGeneration {
    /// The best cost so far (total nodes).
    pub cost: u64,
    /// Generation number, from 1.
    pub generation: u32,
    /// The mutation scale after this generation.
    pub sigma: f64,
    /// The best weights so far.
    pub weights: [i32; N_FEATURES],
}

/// The answer to a [`TrainRequest`] (fields in the order `train --json` prints them).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrainResponse {
    /// Training queues per line count (the request's; not serialised).
    #[serde(skip)]
    pub queues: u64,
    /// Total nodes of the best weights over the training queues.
    pub best_cost_nodes: u64,
    /// The best weights (in the order of `solver::FEATURE_NAMES`).
    pub best_weights: [i32; N_FEATURES],
    /// One entry per generation.
    pub log: Vec<TrainGeneration>,
}

/// Per-queue node cap of [`train_cost`], so that bad weights stay cheap to evaluate.
const TRAIN_NODE_CAP: u64 = 20_000;

/// Training cost of a weight vector: total nodes over the training queues (deterministic,
/// unlike time), with a per-queue node cap so that bad weights stay cheap to evaluate. Runs
/// on the caller's rayon pool; `Err(Aborted)` once the flag is set.
fn train_cost(
    kicks: &KickTable,
    w: Weights,
    seed: u64,
    queues: u64,
    lines: &[u32],
    ctl: Control,
) -> Result<u64, Error> {
    let items: Vec<(u64, u32)> =
        (0..queues).flat_map(|i| lines.iter().map(move |&l| (i, l))).collect();
    let cost = items
        .par_iter()
        .map_init(
            || Solver::with_weights(kicks, w),
            |solver, &(i, lines)| {
                if ctl.aborted() {
                    return 0;
                }
                let mut req = PcRequest::opener(opener_queue(seed, i, queue_pieces(lines)));
                req.height = Some(lines);
                solver.set_node_limit(TRAIN_NODE_CAP);
                let _ = solver.solve(&req);
                solver.stats().nodes
            },
        )
        .sum();
    ctl.check()?;
    Ok(cost)
}

/// Fits the ordering weights: from `start`, each generation draws `lambda` mutations and keeps
/// the best if it lowers the cost (sigma grows by 1.2 on success, shrinks by 0.8 otherwise).
/// Progress counts generations; the abort flag is checked per training queue.
pub fn train(req: &TrainRequest, ctl: Control) -> Result<TrainResponse, Error> {
    if req.queues == 0 {
        return Err(Error::input("queues: 0, must be at least 1"));
    }
    if req.lambda == 0 {
        return Err(Error::input("lambda: 0, must be at least 1"));
    }
    let lines = line_counts(req.lines)?;
    let start = parse_weight_vector("start", &req.start)?;
    let kicks = KickTable::srs_plus();
    // Training queues never overlap the benchmark's (master seed S + 1000).
    let tseed = req.seed.wrapping_add(1000);
    let mut rng = bits::Rng::new(req.seed);
    // Start from the given weights (hand-set by default), so this command reproduces the
    // shipped ones.
    let mut best = start;
    let mut best_cost = train_cost(&kicks, best, tseed, req.queues, &lines, ctl)?;
    let mut sigma = 4.0f64;
    let mut log = Vec::new();
    for g in 0..req.generations {
        let mut gen_best: Option<(u64, Weights)> = None;
        for _ in 0..req.lambda {
            let mut w = best;
            for x in w.0.iter_mut() {
                // A rough normal draw: sum of 4 uniforms, centred and scaled.
                let z: f64 = (0..4).map(|_| rng.unit_f64()).sum::<f64>() - 2.0;
                *x += (z * sigma * 1.7).round() as i32;
            }
            let c = train_cost(&kicks, w, tseed, req.queues, &lines, ctl)?;
            if gen_best.is_none_or(|(bc, _)| c < bc) {
                gen_best = Some((c, w));
            }
        }
        if let Some((c, w)) = gen_best {
            if c < best_cost {
                best_cost = c;
                best = w;
                sigma *= 1.2;
            } else {
                sigma = (sigma * 0.8).max(0.5);
            }
        }
        log.push(TrainGeneration { generation: g + 1, cost: best_cost, weights: best.0, sigma });
        ctl.report(Progress::new(u64::from(g) + 1, Some(u64::from(req.generations))));
    }
    Ok(TrainResponse { queues: req.queues, best_cost_nodes: best_cost, best_weights: best.0, log })
}
