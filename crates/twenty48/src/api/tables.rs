//! `2048 tables`: build an endgame table ([`crate::endgame`]) and check a sample of it.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::{check_range, Control, Error, Progress};
use crate::endgame::{unquantize, Formation, Held, Table, MAX_SLACK, SLACK};

/// What to build.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TablesRequest {
    /// The formation: `442` (snake), `L3` (3x2 corner block), `L3b` (the block, the target
    /// built beside its smallest tile), `L5b` (the block's five largest, the sixth to
    /// build, eleven cells free and capped; its won positions valued by `L3b`'s table) or
    /// `L5w` (the block's five largest, the smallest one's twin built whole at (2,1)) or
    /// `L5c` (`L5b` with looser caps, macroxue/2048-ai's big tables').
    pub formation: String,
    /// The tile to build: 8 to 512, or to 1024 for `442`, `L3b`, `L5b` and `L5w` (whose
    /// locked stand-ins all stay above a 1024).
    pub target: u32,
    /// The table file that values a won position, for `L5b`: the `L3b` table for the same
    /// target (from `2048 tables`; read whole, or served from its file by
    /// [`tables_on_disk`], which takes only the current form).
    pub then: Option<String>,
    /// Positions of the table's last layers checked against the plain recursion.
    pub verify: usize,
    /// The seed of the sample checked.
    pub seed: u64,
    /// The free-tile sum a position may hold past the target's own (leftover small tiles;
    /// past it a position counts as lost): even, 2 to 1024, 96 by default
    /// ([`crate::endgame::SLACK`]).
    pub slack: u32,
}

impl Default for TablesRequest {
    fn default() -> Self {
        TablesRequest {
            formation: "L3b".into(),
            target: 512,
            then: None,
            verify: 200,
            seed: 1,
            slack: SLACK,
        }
    }
}

impl TablesRequest {
    /// The range of `verify`.
    pub const VERIFY: RangeInclusive<usize> = 0..=100_000;
    /// The layers `verify` draws from (the plain recursion's cost grows fast with the layers
    /// above a position).
    pub const VERIFY_LAYERS: usize = 6;

    /// The formation, target rank and layer count (with the slack) alone (what
    /// [`count_table`] needs), or the input error naming the field.
    pub fn shape(&self) -> Result<(Formation, u8, usize), Error> {
        let f = Formation::named(&self.formation).ok_or_else(|| {
            Error::input(format!(
                "formation: {:?}, expected 442, L3, L3b, L5b, L5c or L5w",
                self.formation
            ))
        })?;
        let t = self.target;
        let most = 1u32 << f.max_target();
        if !(t.is_power_of_two() && (8..=most).contains(&t)) {
            return Err(Error::input(format!(
                "target: {t}, expected a tile from 8 to {most} for {}",
                f.name
            )));
        }
        let s = self.slack;
        if s % 2 != 0 || !(2..=MAX_SLACK).contains(&s) {
            return Err(Error::input(format!(
                "slack: {s}, expected an even free-tile sum from 2 to {MAX_SLACK}"
            )));
        }
        let target = t.trailing_zeros() as u8;
        Ok((f, target, Table::layers_for(target, s)))
    }

    /// The formation, target rank and layer count, checked with the other fields, or the
    /// input error naming the field.
    pub fn parse(&self) -> Result<(Formation, u8, usize), Error> {
        let (f, target, n) = self.shape()?;
        let t = self.target;
        check_range("verify", self.verify, Self::VERIFY)?;
        match (f.then, &self.then) {
            (Some(name), None) => {
                return Err(Error::input(format!(
                    "then: {} needs the {name} table for {t} (its won positions' values)",
                    f.name
                )))
            }
            (None, Some(_)) => {
                return Err(Error::input(format!("then: {} takes no second table", f.name)))
            }
            _ => {}
        }
        Ok((f, target, n))
    }

    /// The table `then` names, read and checked against the formation and target.
    pub fn then_table(&self, f: &Formation, target: u8) -> Result<Option<Table>, Error> {
        let (Some(name), Some(path)) = (f.then, &self.then) else { return Ok(None) };
        let t = super::read_table(std::path::Path::new(path))?;
        if (t.formation.name, t.target) != (name, target) {
            return Err(Error::input(format!(
                "then: {path} is a {} table for {}, {} needs {name} for {}",
                t.formation.name,
                1u32 << t.target,
                f.name,
                1u32 << target
            )));
        }
        Ok(Some(t))
    }
}

/// The built table and its figures.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TablesResponse {
    /// The formation's name.
    pub formation: String,
    /// The target tile.
    pub target: u32,
    /// The slack: the free-tile sum past the target's that the last layer holds.
    pub slack: u32,
    /// Layers (free-tile sums from 4 in steps of 2).
    pub layers: usize,
    /// Positions held.
    pub positions: u64,
    /// Positions with a chance above 0.
    pub winnable: u64,
    /// The chance from the first layer's best position, and its mean: the formation's
    /// chance from (nearly) empty free cells.
    pub best_start: f32,
    /// The mean chance over the first layer.
    pub mean_start: f64,
    /// Positions checked against the plain recursion.
    pub verified: usize,
    /// The largest difference found there.
    pub worst_difference: f64,
    /// Seconds to build (both passes).
    pub build_seconds: f64,
    /// Seconds to check.
    pub verify_seconds: f64,
    /// The table (not serialised: the CLI writes it with [`Table::write_to`]); `None` only
    /// in a response read back from JSON.
    #[serde(skip)]
    pub table: Option<Table>,
}

/// Builds the table, checks a sample against [`crate::endgame::Reference`] (a difference
/// above 1e-4 fails the call) and returns it encoded. Progress is reported by layer; the
/// abort flag is honoured between layers.
pub fn tables(req: &TablesRequest, ctl: Control) -> Result<TablesResponse, Error> {
    let (f, target, n) = req.parse()?;
    let then = req.then_table(&f, target)?;
    let start = std::time::Instant::now();
    let table =
        Table::build_with(f, target, req.slack, then.as_ref(), |pass, done, _, positions| {
            let step = if pass == "forward" { done } else { n + done };
            ctl.report(
                Progress::new(step as u64, Some(2 * n as u64))
                    .with_message(format!("{pass} pass, {positions} positions")),
            );
            ctl.check()
        })?;
    let build_seconds = start.elapsed().as_secs_f64();
    let start = std::time::Instant::now();
    let worst =
        table.verify_sample(req.verify, TablesRequest::VERIFY_LAYERS, req.seed, then.as_ref());
    drop(then);
    let verify_seconds = start.elapsed().as_secs_f64();
    if worst > 1e-4 {
        return Err(Error::failed(format!(
            "the table differs from the plain recursion by {worst} on a checked position"
        )));
    }
    let first = &table.values[0];
    Ok(TablesResponse {
        formation: f.name.to_string(),
        target: 1 << target,
        slack: req.slack,
        layers: n,
        positions: table.len(),
        winnable: table.values.iter().flatten().filter(|&&v| v > 0).count() as u64,
        best_start: unquantize(first.iter().copied().max().unwrap_or(0)),
        mean_start: first.iter().map(|&v| f64::from(unquantize(v))).sum::<f64>()
            / first.len().max(1) as f64,
        verified: req.verify,
        worst_difference: worst,
        build_seconds,
        verify_seconds,
        table: Some(table),
    })
}

/// A table's size before it is built (`2048 tables --count`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableCount {
    /// The formation's name.
    pub formation: String,
    /// The target tile.
    pub target: u32,
    /// The slack: the free-tile sum past the target's that the last layer holds.
    pub slack: u32,
    /// Layers (free-tile sums from 4 in steps of 2).
    pub layers: usize,
    /// Positions the table would hold.
    pub positions: u64,
    /// The largest layer's positions.
    pub largest_layer: u64,
    /// The free-tile sum of the largest layer.
    pub largest_sum: u32,
    /// The file's size in the current form, in bytes (about 6 a position; the runs' few
    /// bytes not counted).
    pub file_bytes: u64,
    /// Seconds the count took.
    pub seconds: f64,
}

impl TableCount {
    /// The count as text.
    pub fn text(&self) -> String {
        format!(
            "{} table for {} (slack {}): {} positions in {} layers (the largest {} at free-tile \
             sum {}), about {:.2} GB as a file; counted in {:.1} s\n",
            self.formation,
            self.target,
            self.slack,
            self.positions,
            self.layers,
            self.largest_layer,
            self.largest_sum,
            self.file_bytes as f64 / 1e9,
            self.seconds
        )
    }
}

/// Counts the positions a table would hold by the build's forward pass alone
/// ([`Table::count`]: each layer dropped once counted, so memory holds about two layers),
/// to size a table before building it. Progress by layer; the abort flag is honoured
/// between layers. `then` and `verify` are not used.
pub fn count_table(req: &TablesRequest, ctl: Control) -> Result<TableCount, Error> {
    let (f, target, _) = req.shape()?;
    let start = std::time::Instant::now();
    let sizes = Table::count(f, target, req.slack, |done, n, positions| {
        ctl.report(
            Progress::new(done as u64, Some(n as u64))
                .with_message(format!("forward pass, {positions} positions")),
        );
        ctl.check()
    })?;
    let (largest, &largest_layer) = sizes
        .iter()
        .enumerate()
        .max_by_key(|&(i, &n)| (n, std::cmp::Reverse(i)))
        .unwrap_or((0, &0));
    let positions = sizes.iter().sum::<u64>();
    Ok(TableCount {
        formation: f.name.to_string(),
        target: 1 << target,
        slack: req.slack,
        layers: sizes.len(),
        positions,
        largest_layer,
        largest_sum: crate::endgame::BASE_SUM + 2 * largest as u32,
        file_bytes: 6 * positions,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// [`tables`] with the layers on disk in `work_dir` while the table is built
/// ([`crate::spill::build_to_file`]: memory holds a few layers, for tables larger than
/// memory), the table file written to `out` as it is assembled. The response holds no table
/// and no check yet: check the written file with [`verify_table_file`] before trusting it
/// ([`tables_to_file`] does both, through a temporary file).
/// `then` (for a chained formation) is served from its file.
pub fn tables_on_disk(
    req: &TablesRequest,
    work_dir: &std::path::Path,
    out: &mut dyn std::io::Write,
    ctl: Control,
) -> Result<TablesResponse, Error> {
    let (f, target, n) = req.parse()?;
    if !work_dir.is_dir() {
        return Err(Error::input(format!("work_dir: {} is not a directory", work_dir.display())));
    }
    let then = match &req.then {
        Some(path) => Some(super::open_table(std::path::Path::new(path))?),
        None => None,
    };
    if let (Some(t), Some(name)) = (&then, f.then) {
        if (t.formation().name, t.target()) != (name, target) {
            return Err(Error::input(format!(
                "then: {} is a {} table for {}, {} needs {name} for {}",
                req.then.as_deref().unwrap_or_default(),
                t.formation().name,
                1u32 << t.target(),
                f.name,
                1u32 << target
            )));
        }
    }
    let start = std::time::Instant::now();
    let then_held = then.as_ref().map(|t| t as &(dyn Held + Sync));
    let r = crate::spill::build_to_file(
        f,
        target,
        req.slack,
        then_held,
        work_dir,
        out,
        |pass, done, _, p| {
            let step = match pass {
                "forward" => done,
                "backward" => n + done,
                _ => 2 * n + done,
            };
            ctl.report(
                Progress::new(step as u64, Some(3 * n as u64))
                    .with_message(format!("{pass} pass, {p} positions")),
            );
            // A `then` table that could not be read stops the build at the next layer.
            if let Some(e) = then.as_ref().and_then(|t| t.failure()) {
                return Err(Error::failed(format!("then: {e}")));
            }
            ctl.check()
        },
    );
    let (_, built) = r.map_err(|e| match e {
        crate::spill::SpillError::Io(m) => Error::failed(format!("building on disk: {m}")),
        crate::spill::SpillError::Stopped(e) => e,
    })?;
    if let Some(e) = then.as_ref().and_then(|t| t.failure()) {
        return Err(Error::failed(format!("then: {e}")));
    }
    Ok(TablesResponse {
        formation: f.name.to_string(),
        target: 1 << target,
        slack: req.slack,
        layers: n,
        positions: built.positions,
        winnable: built.winnable,
        best_start: unquantize(built.best_start),
        mean_start: built.mean_start,
        verified: 0,
        worst_difference: 0.0,
        build_seconds: start.elapsed().as_secs_f64(),
        verify_seconds: 0.0,
        table: None,
    })
}

/// [`tables_on_disk`] then [`verify_table_file`], as one step that leaves either a checked
/// file at `out` or nothing: the table is written to a temporary file beside `out` (named
/// for this process), flushed to disk, checked from disk, and only then renamed to `out`.
/// A build or check that fails, or is stopped, removes the temporary and leaves `out` as it
/// was; the error is the build's or the check's own.
pub fn tables_to_file(
    req: &TablesRequest,
    work_dir: &std::path::Path,
    out: &std::path::Path,
    ctl: Control,
) -> Result<TablesResponse, Error> {
    req.parse()?;
    let io = |e: std::io::Error| Error::failed(format!("{}: cannot write: {e}", out.display()));
    bits::atomic::write_atomic(
        out,
        |w| tables_on_disk(req, work_dir, w, ctl),
        |tmp, r| verify_table_file(tmp, req, r),
        io,
    )
}

/// Checks a written table file as [`tables`] checks a table in memory: `req.verify`
/// positions of its last layers against the plain recursion, read from the file (served,
/// so memory holds only its index); a difference above 1e-4 fails. Fills `r`'s check.
pub fn verify_table_file(
    path: &std::path::Path,
    req: &TablesRequest,
    r: &mut TablesResponse,
) -> Result<(), Error> {
    let start = std::time::Instant::now();
    let t = super::open_table(path)?;
    let then = match &req.then {
        Some(p) => Some(super::open_table(std::path::Path::new(p))?),
        None => None,
    };
    let then_held = then.as_ref().map(|t| t as &(dyn Held + Sync));
    let worst = crate::endgame::verify_sample(
        &t,
        req.verify,
        TablesRequest::VERIFY_LAYERS,
        req.seed,
        then_held,
    );
    if let Some(e) = t.failure().or_else(|| then.as_ref().and_then(|t| t.failure())) {
        return Err(Error::failed(e));
    }
    if worst > 1e-4 {
        return Err(Error::failed(format!(
            "{}: the table differs from the plain recursion by {worst} on a checked position",
            path.display()
        )));
    }
    r.verified = req.verify;
    r.worst_difference = worst;
    r.verify_seconds = start.elapsed().as_secs_f64();
    Ok(())
}

/// One layer of a table: its positions and their chances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LayerInfo {
    /// The free tiles' sum of every position in the layer.
    pub sum: u32,
    /// Positions held.
    pub positions: u64,
    /// Positions with a chance above 0.
    pub winnable: u64,
    /// The best chance in the layer.
    pub best: f32,
    /// The median chance (the lower middle of an even count).
    pub median: f32,
}

/// What a table file holds, layer by layer (`2048 table-info`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableInfo {
    /// The formation's name.
    pub formation: String,
    /// The target tile.
    pub target: u32,
    /// The slack: the free-tile sum past the target's that the last layer holds.
    pub slack: u32,
    /// Positions held.
    pub positions: u64,
    /// Every non-empty layer, by free-tile sum.
    pub layers: Vec<LayerInfo>,
    /// The file's checksum ([`checksum_hex`]), when the table was read from a file
    /// ([`table_info_file`]): two files hold the same table exactly when these agree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checksum: Option<String>,
}

/// A table file's checksum (FNV-1a 64 of its body, stored as its last 8 bytes) as 16 hex
/// digits: the form reports name a table file's exact contents in.
pub fn checksum_hex(sum: u64) -> String {
    format!("{sum:016x}")
}

/// [`table_info`] of the table file at `path`, with its checksum; a defect is an input
/// error naming the file.
pub fn table_info_file(path: &std::path::Path) -> Result<TableInfo, Error> {
    let (t, sum) = super::read_table_sealed(path)?;
    Ok(TableInfo { checksum: Some(checksum_hex(sum)), ..table_info(&t) })
}

/// The figures of a loaded table, by layer: how its chances depend on how much the free
/// cells already hold (from [`crate::api::read_table`]).
pub fn table_info(t: &Table) -> TableInfo {
    let layers = t
        .keys
        .iter()
        .zip(&t.values)
        .enumerate()
        .filter(|(_, (k, _))| !k.is_empty())
        .map(|(i, (_, v))| {
            let mut sorted = v.clone();
            sorted.sort_unstable();
            LayerInfo {
                sum: crate::endgame::BASE_SUM + 2 * i as u32,
                positions: v.len() as u64,
                winnable: v.iter().filter(|&&x| x > 0).count() as u64,
                best: unquantize(sorted[sorted.len() - 1]),
                median: unquantize(sorted[(sorted.len() - 1) / 2]),
            }
        })
        .collect();
    TableInfo {
        formation: t.formation.name.to_string(),
        target: 1 << t.target,
        slack: t.slack(),
        positions: t.len(),
        layers,
        checksum: None,
    }
}

/// A table file rewritten in the current form (`2048 table-convert`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableConvertReport {
    /// The formation's name.
    pub formation: String,
    /// The target tile.
    pub target: u32,
    /// Positions held.
    pub positions: u64,
    /// The file read, in bytes.
    pub bytes_before: u64,
    /// The file written, in bytes.
    pub bytes_after: u64,
}

impl TableConvertReport {
    /// The report of `read` (a file of `bytes_before`) rewritten and read back as `back`
    /// (`bytes_after`); an error unless `back` holds exactly what `read` held.
    pub fn new(
        read: &Table,
        back: &Table,
        bytes_before: u64,
        bytes_after: u64,
    ) -> Result<TableConvertReport, Error> {
        let same = (read.formation.name, read.target, &read.keys, &read.values)
            == (back.formation.name, back.target, &back.keys, &back.values);
        if !same {
            return Err(Error::failed("the written table reads back differently".to_string()));
        }
        Ok(TableConvertReport {
            formation: read.formation.name.to_string(),
            target: 1 << read.target,
            positions: read.len(),
            bytes_before,
            bytes_after,
        })
    }

    /// The one-line report of a table written to `out`.
    pub fn text(&self, out: &str) -> String {
        format!(
            "{} table for {}: {} positions, {:.1} MB read, {:.1} MB written to {out} (read back \
             and compared)\n",
            self.formation,
            self.target,
            self.positions,
            self.bytes_before as f64 / 1e6,
            self.bytes_after as f64 / 1e6
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::{Formation, BASE_SUM};

    #[test]
    fn table_info_reads_every_layer_of_a_built_table() {
        let t = Table::build(Formation::BLOCK_BESIDE, 3, |_, _, _, _| Ok::<(), ()>(())).unwrap();
        let info = table_info(&t);
        assert_eq!((info.formation.as_str(), info.target), ("L3b", 8));
        assert_eq!(info.positions, t.len());
        assert_eq!(info.layers.iter().map(|l| l.positions).sum::<u64>(), t.len());
        // Layer 0 is a 4 or two 2s in the ten free cells: 10 + 45 positions.
        assert_eq!((info.layers[0].sum, info.layers[0].positions), (BASE_SUM, 55));
        for l in &info.layers {
            let i = ((l.sum - BASE_SUM) / 2) as usize;
            let v: Vec<f32> = t.values[i].iter().map(|&q| unquantize(q)).collect();
            let best = v.iter().copied().fold(0.0, f32::max);
            let below = v.iter().filter(|&&x| x < l.median).count();
            let above = v.iter().filter(|&&x| x > l.median).count();
            assert_eq!(l.best, best, "sum {}", l.sum);
            assert!(2 * below < v.len() && 2 * above <= v.len(), "sum {}: median", l.sum);
            assert_eq!(l.winnable, v.iter().filter(|&&x| x > 0.0).count() as u64);
        }
        // From the first layer the block builds an 8 almost surely.
        assert!(info.layers[0].best > 0.99, "{:?}", info.layers[0]);
    }
}
