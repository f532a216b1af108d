//! Reading a SameGame board off a screenshot, from its pixels alone (the browser bot's eyes):
//! no knowledge of the page's code or DOM.
//!
//! 1. **The grid** ([`find_grid`]): tile boundaries are sharp colour edges repeated at the
//!    tile pitch. Per axis, the count of strong edges in each pixel column (row) is a profile
//!    whose autocorrelation peaks at the pitch (the lag `L` with both `L` and `2L` strong, the
//!    smallest near the best); the phase is the comb of that pitch with the most edge weight,
//!    and the board is the longest run of strong comb teeth. The teeth found are fitted by
//!    least squares, so a fractional pitch (a device scale factor, a canvas sized to its
//!    container) keeps the centres exact. Gradients inside tiles change a few levels a pixel
//!    and make no strong edges; borders and gaps make edges at the boundaries themselves.
//!    Each axis is measured within the other's extent (across, down, across, down), so the page
//!    beside the board (text, panels, a pattern) weighs little, and outer lines whose cells
//!    mostly show colours the inner tiles do not (the page, a frame, a panel) are trimmed.
//! 2. **The cells** ([`read`]): the mean colour of the middle third of each tile, clustered
//!    greedily (a cell joins the first colour within [`COLOUR_TOLERANCE`] of it), or matched
//!    to a palette read before. The empty cluster is the one the board's background explains:
//!    close to the gap lines between tiles or to the page just outside the board, and lying
//!    as gravity leaves empty cells (a run down from the top of each column, whole columns at
//!    the right).
//!
//! ```
//! use samegame::screen::{find_grid, read, Image};
//!
//! // Two by two tiles of 10 pixels on a grey page: red, green / red, blue.
//! let colours = [[200, 30, 30], [30, 180, 40], [200, 30, 30], [40, 60, 210]];
//! let mut img = Image::filled(40, 40, [128, 128, 128]);
//! for (i, c) in colours.iter().enumerate() {
//!     let (x0, y0) = (10 + 10 * (i % 2), 10 + 10 * (i / 2));
//!     img.fill_rect(x0, y0, 10, 10, *c);
//! }
//! let grid = find_grid(&img).unwrap();
//! assert_eq!((grid.cols, grid.rows), (2, 2));
//! let r = read(&img, &grid, None).unwrap();
//! assert_eq!(r.board.to_string(), "01\n02\n");
//! ```

use crate::Board;

/// Two colours closer than this in every channel are the same colour.
pub const COLOUR_TOLERANCE: i32 = 40;
/// A pixel differing from its neighbour by more than this (in some channel) is an edge.
const EDGE: i32 = 36;
/// The smallest tile pitch looked for, in pixels.
const MIN_PITCH: usize = 6;

/// An RGB image, row by row from the top, three bytes a pixel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// The pixels.
    pub rgb: Vec<u8>,
}

impl Image {
    /// An image from its pixels; the length must be `3 * width * height`.
    pub fn new(width: usize, height: usize, rgb: Vec<u8>) -> Result<Image, String> {
        if rgb.len() != 3 * width * height {
            return Err(format!("image: {} bytes for {width}x{height} RGB pixels", rgb.len()));
        }
        Ok(Image { width, height, rgb })
    }

    /// An image of one colour.
    pub fn filled(width: usize, height: usize, c: [u8; 3]) -> Image {
        Image { width, height, rgb: c.repeat(width * height) }
    }

    /// The pixel at `(x, y)`.
    #[inline]
    pub fn px(&self, x: usize, y: usize) -> [u8; 3] {
        let i = 3 * (y * self.width + x);
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// Sets the pixel at `(x, y)` (ignored outside the image).
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, c: [u8; 3]) {
        if x < self.width && y < self.height {
            let i = 3 * (y * self.width + x);
            self.rgb[i..i + 3].copy_from_slice(&c);
        }
    }

    /// Fills a rectangle (clipped to the image).
    pub fn fill_rect(&mut self, x0: usize, y0: usize, w: usize, h: usize, c: [u8; 3]) {
        for y in y0..(y0 + h).min(self.height) {
            for x in x0..(x0 + w).min(self.width) {
                self.set(x, y, c);
            }
        }
    }
}

/// Where the tiles are: tile `(col, row)` (row 0 at the top) spans
/// `x0 + col * pitch_x .. x0 + (col + 1) * pitch_x`, and the same down from `y0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// Left edge of the first column.
    pub x0: f64,
    /// Top edge of the first row.
    pub y0: f64,
    /// Horizontal pitch (tile and gap).
    pub pitch_x: f64,
    /// Vertical pitch.
    pub pitch_y: f64,
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
}

impl Grid {
    /// The centre of tile `(col, row)`, row 0 at the top, in pixels.
    pub fn centre(&self, col: usize, row: usize) -> (f64, f64) {
        (self.x0 + (col as f64 + 0.5) * self.pitch_x, self.y0 + (row as f64 + 0.5) * self.pitch_y)
    }
}

/// A board read off an image.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The grid it was read on.
    pub grid: Grid,
    /// The colour of each colour index, as seen (the palette to read the next image with).
    pub palette: Vec<[u8; 3]>,
    /// The colour of the empty cells, if any cell is empty (or it was known before).
    pub empty: Option<[u8; 3]>,
    /// Each cell, row by row from the top: a colour index, or `None` for empty.
    pub cells: Vec<Option<u8>>,
    /// The board (colour `i` of the palette is colour `i` of the board).
    pub board: Board,
}

#[inline]
fn dist(a: [u8; 3], b: [u8; 3]) -> i32 {
    (0..3).map(|i| (i32::from(a[i]) - i32::from(b[i])).abs()).max().unwrap_or(0)
}

/// Edge counts per pixel column (`horizontal`: edges between `x - 1` and `x`, over rows
/// `span`) or per pixel row.
fn profile(img: &Image, horizontal: bool, span: (usize, usize)) -> Vec<f64> {
    let (n, m) = if horizontal { (img.width, img.height) } else { (img.height, img.width) };
    let (lo, hi) = (span.0.min(m), span.1.min(m));
    let mut p = vec![0.0; n];
    for (i, v) in p.iter_mut().enumerate().skip(1) {
        let mut c = 0u32;
        for j in lo..hi {
            let (a, b) = if horizontal {
                (img.px(i - 1, j), img.px(i, j))
            } else {
                (img.px(j, i - 1), img.px(j, i))
            };
            c += u32::from(dist(a, b) > EDGE);
        }
        *v = f64::from(c);
    }
    p
}

/// The tile pitch of an edge profile (see the module docs), or `None` without a period.
fn pitch(p: &[f64]) -> Option<usize> {
    let n = p.len();
    // Blurred by a pixel each way, so that a fractional pitch (17.5: edges 17 and 18 apart
    // in turn) still lines up with itself.
    let b: Vec<f64> = (0..n)
        .map(|i| p[i.saturating_sub(1)] + p[i] + p[(i + 1).min(n.saturating_sub(1))])
        .collect();
    let mean = b.iter().sum::<f64>() / n.max(1) as f64;
    let d: Vec<f64> = b.iter().map(|v| v - mean).collect();
    let r = |l: usize| -> f64 {
        if l >= n {
            return 0.0;
        }
        d.iter().zip(&d[l..]).map(|(a, b)| a * b).sum::<f64>() / (n - l) as f64
    };
    let max_l = n / 3;
    if max_l <= MIN_PITCH {
        return None;
    }
    let score: Vec<(usize, f64)> = (MIN_PITCH..=max_l).map(|l| (l, r(l).min(r(2 * l)))).collect();
    let best = score.iter().map(|s| s.1).fold(f64::MIN, f64::max);
    // A lattice repeats most of the profile's variation; noise repeats none of it.
    if best <= 0.0 || best < 0.2 * r(0) {
        return None;
    }
    score.iter().find(|s| s.1 >= 0.8 * best).map(|s| s.0)
}

/// One axis of the grid from its profile: (origin, fitted pitch, tiles). A lattice whose
/// midpoints carry edges as strong as its teeth is one of half the pitch (the profile's
/// integer period of a fractional pitch: 35 for tiles of 17.5 pixels).
fn axis(p: &[f64], pitch: usize) -> Option<(f64, f64, usize)> {
    let (x0, fitted, n) = axis_at(p, pitch as f64)?;
    let w = (fitted / 6.0).max(1.0);
    let near = |c: f64| -> f64 {
        let (lo, hi) =
            ((c - w).round().max(0.0) as usize, ((c + w).round() as usize).min(p.len() - 1));
        p[lo..=hi.max(lo)].iter().copied().fold(0.0, f64::max)
    };
    let teeth: f64 = (0..=n).map(|k| near(x0 + k as f64 * fitted)).sum::<f64>() / (n + 1) as f64;
    let mids: f64 =
        (0..n).map(|k| near(x0 + (k as f64 + 0.5) * fitted)).sum::<f64>() / n.max(1) as f64;
    if n >= 1 && fitted / 2.0 >= MIN_PITCH as f64 && mids >= 0.5 * teeth {
        return axis_at(p, fitted / 2.0);
    }
    Some((x0, fitted, n))
}

/// [`axis`] at a given (possibly fractional) pitch.
fn axis_at(p: &[f64], pitch: f64) -> Option<(f64, f64, usize)> {
    let n = p.len();
    let w = ((pitch / 6.0) as usize).max(1);
    // The edge weight near position c, and its centre: the middle of a gap's two edges, or
    // of an outline's, or the one edge where tiles touch.
    let tooth = |c: isize| -> (f64, f64) {
        let (lo, hi) =
            ((c - w as isize).max(0) as usize, (c + w as isize).min(n as isize - 1) as usize);
        if lo > hi {
            return (0.0, c as f64);
        }
        let top = p[lo..=hi].iter().copied().fold(0.0, f64::max);
        if top <= 0.0 {
            return (0.0, c as f64);
        }
        let (mut m, mut mx) = (0.0, 0.0);
        for (x, v) in p.iter().enumerate().take(hi + 1).skip(lo) {
            if *v >= 0.5 * top {
                m += v;
                mx += v * x as f64;
            }
        }
        (top, mx / m)
    };
    let comb = |ph: usize| -> Vec<(f64, f64)> {
        (0..)
            .map(|k| (ph as f64 + k as f64 * pitch).round() as isize)
            .take_while(|&c| c < n as isize)
            .map(tooth)
            .collect()
    };
    let mut phase = (0.0, 0usize);
    for ph in 0..pitch.ceil() as usize {
        let s: f64 = comb(ph).iter().map(|t| t.0).sum();
        if s > phase.0 {
            phase = (s, ph);
        }
    }
    let teeth = comb(phase.1);
    let top = teeth.iter().map(|t| t.0).fold(0.0, f64::max);
    if top <= 0.0 {
        return None;
    }
    // The longest run of strong teeth: the board's boundaries.
    let (mut best, mut start) = ((0usize, 0usize), None);
    for (k, t) in teeth.iter().enumerate() {
        if t.0 >= 0.35 * top {
            let s = *start.get_or_insert(k);
            if k + 1 - s > best.1 - best.0 {
                best = (s, k + 1);
            }
        } else {
            start = None;
        }
    }
    let run = &teeth[best.0..best.1];
    if run.len() < 2 {
        return None;
    }
    // Least squares: position = origin + k * pitch.
    let m = run.len() as f64;
    let (sk, sx) =
        run.iter().enumerate().fold((0.0, 0.0), |(a, b), (k, t)| (a + k as f64, b + t.1));
    let (mk, mx) = (sk / m, sx / m);
    let (mut num, mut den) = (0.0, 0.0);
    for (k, t) in run.iter().enumerate() {
        num += (k as f64 - mk) * (t.1 - mx);
        den += (k as f64 - mk).powi(2);
    }
    let fitted = num / den;
    Some((mx - mk * fitted, fitted, run.len() - 1))
}

/// Finds the board's grid in `img` (a board with tiles in most of its cells, as at the start
/// of a game); an error says what is missing.
pub fn find_grid(img: &Image) -> Result<Grid, String> {
    let none = |what: &str| format!("no board found: {what}");
    // One axis, measured within `span` of the other.
    let across = |span: (usize, usize)| -> Result<(f64, f64, usize), String> {
        let ph = profile(img, true, span);
        let px = pitch(&ph).ok_or_else(|| none("no repeated tile edges across"))?;
        axis(&ph, px).ok_or_else(|| none("no run of tile edges across"))
    };
    let down = |span: (usize, usize)| -> Result<(f64, f64, usize), String> {
        let pv = profile(img, false, span);
        let py = pitch(&pv).ok_or_else(|| none("no repeated tile edges down"))?;
        axis(&pv, py).ok_or_else(|| none("no run of tile edges down"))
    };
    let extent = |a: (f64, f64, usize)| {
        (a.0.max(0.0) as usize, (a.0 + a.1 * a.2 as f64).ceil() as usize + 1)
    };
    // Each axis is measured within the other's extent, so that the page beside the board
    // (text, panels) weighs little; across first, else down first.
    let y = match across((0, img.height)) {
        Ok(x) => down(extent(x))?,
        Err(e) => down((0, img.width)).map_err(|_| e)?,
    };
    let x = across(extent(y))?;
    let y = down(extent(x))?;
    let g = trim(img, Grid { x0: x.0, y0: y.0, pitch_x: x.1, pitch_y: y.1, cols: x.2, rows: y.2 });
    if g.cols < 2 || g.rows < 2 {
        return Err(none(&format!("{}x{} tiles is not a board", g.cols, g.rows)));
    }
    if g.cols > crate::board::MAX_WIDTH || g.rows > crate::board::MAX_HEIGHT {
        return Err(none(&format!("{}x{} tiles is larger than any board", g.cols, g.rows)));
    }
    Ok(g)
}

/// Drops outer rows and columns that are no tiles: a line most of whose cells show colours
/// the inner block does not have (the page above or below the board, a frame, a panel beside
/// it, whose edges happen to fall on the lattice).
fn trim(img: &Image, mut g: Grid) -> Grid {
    let r = (g.pitch_x.min(g.pitch_y) / 6.0).max(0.5);
    loop {
        if g.cols < 3 || g.rows < 3 {
            return g;
        }
        let mut colours: Vec<[u8; 3]> = Vec::new();
        let mut cell = vec![0usize; g.cols * g.rows];
        for row in 0..g.rows {
            for col in 0..g.cols {
                let (cx, cy) = g.centre(col, row);
                let s = mean(img, cx, cy, r);
                cell[row * g.cols + col] =
                    match colours.iter().position(|c| dist(*c, s) <= COLOUR_TOLERANCE) {
                        Some(k) => k,
                        None => {
                            colours.push(s);
                            colours.len() - 1
                        }
                    };
            }
        }
        // The colours of the inner block (every line but the outer four).
        let mut inner = vec![false; colours.len()];
        for row in 1..g.rows - 1 {
            for col in 1..g.cols - 1 {
                inner[cell[row * g.cols + col]] = true;
            }
        }
        // The share of an outer line's cells that show an inner colour: about all of them
        // for a line of tiles, few for the page, a frame or a panel beside the board.
        let share = |cells: Vec<usize>| -> f64 {
            cells.iter().filter(|&&k| inner[k]).count() as f64 / cells.len() as f64
        };
        let (top, bottom, left, right) = (
            share((0..g.cols).map(|c| cell[c]).collect()),
            share((0..g.cols).map(|c| cell[(g.rows - 1) * g.cols + c]).collect()),
            share((0..g.rows).map(|r| cell[r * g.cols]).collect()),
            share((0..g.rows).map(|r| cell[r * g.cols + g.cols - 1]).collect()),
        );
        let worst = top.min(bottom).min(left).min(right);
        if worst >= 0.5 {
            return g;
        }
        if worst == top {
            g.y0 += g.pitch_y;
            g.rows -= 1;
        } else if worst == bottom {
            g.rows -= 1;
        } else if worst == left {
            g.x0 += g.pitch_x;
            g.cols -= 1;
        } else {
            g.cols -= 1;
        }
    }
}

/// The mean colour of the square of half-side `r` around `(cx, cy)`.
fn mean(img: &Image, cx: f64, cy: f64, r: f64) -> [u8; 3] {
    let (x0, x1) =
        ((cx - r).round().max(0.0) as usize, ((cx + r).round() as usize).min(img.width - 1));
    let (y0, y1) =
        ((cy - r).round().max(0.0) as usize, ((cy + r).round() as usize).min(img.height - 1));
    let mut s = [0u64; 3];
    let mut n = 0u64;
    for y in y0..=y1 {
        for x in x0..=x1 {
            let p = img.px(x, y);
            for i in 0..3 {
                s[i] += u64::from(p[i]);
            }
            n += 1;
        }
    }
    let n = n.max(1);
    [(s[0] / n) as u8, (s[1] / n) as u8, (s[2] / n) as u8]
}

/// The median colour (channel by channel) of `v`.
fn median(mut v: Vec<[u8; 3]>) -> Option<[u8; 3]> {
    if v.is_empty() {
        return None;
    }
    let mut out = [0u8; 3];
    for (i, o) in out.iter_mut().enumerate() {
        v.sort_unstable_by_key(|c| c[i]);
        *o = v[v.len() / 2][i];
    }
    Some(out)
}

/// Whether the cells marked `empty` lie as gravity leaves them: a run down from the top of
/// each column, and whole empty columns only at the right.
fn gravity_holds(empty: &[bool], cols: usize, rows: usize) -> bool {
    let mut gone = false;
    for c in 0..cols {
        let col: Vec<bool> = (0..rows).map(|r| empty[r * cols + c]).collect();
        let tops = col.iter().take_while(|e| **e).count();
        if col[tops..].iter().any(|e| *e) {
            return false;
        }
        let whole = tops == rows;
        if gone && !whole {
            return false;
        }
        gone |= whole;
    }
    true
}

/// Reads the cells of `grid` in `img`. After an earlier reading of the same game (`before`)
/// every tile must show one of its colours, which keeps the colour indices; without one, the
/// colours are numbered in reading order.
pub fn read(img: &Image, grid: &Grid, before: Option<&Reading>) -> Result<Reading, String> {
    let g = grid;
    let r = (g.pitch_x.min(g.pitch_y) / 6.0).max(0.5);
    let mut samples = Vec::with_capacity(g.cols * g.rows);
    for row in 0..g.rows {
        for col in 0..g.cols {
            let (cx, cy) = g.centre(col, row);
            if cx < 0.0 || cy < 0.0 || cx >= img.width as f64 || cy >= img.height as f64 {
                return Err(format!("the board's tile ({col}, {row}) is off the image"));
            }
            samples.push(mean(img, cx, cy, r));
        }
    }
    // What an empty cell shows: the gap lines between tiles, or the page around the board.
    let mut gap = Vec::new();
    for row in 0..g.rows {
        for col in 1..g.cols {
            let (_, cy) = g.centre(col, row);
            gap.push(img.px((g.x0 + col as f64 * g.pitch_x).round() as usize, cy.round() as usize));
        }
    }
    let mut ring = Vec::new();
    let above = (g.y0 - 0.25 * g.pitch_y).round();
    let right = (g.x0 + (g.cols as f64 + 0.25) * g.pitch_x).round();
    for col in 0..g.cols {
        let (cx, _) = g.centre(col, 0);
        if above >= 0.0 {
            ring.push(img.px(cx.round() as usize, above as usize));
        }
    }
    for row in 0..g.rows {
        let (_, cy) = g.centre(0, row);
        if right < img.width as f64 {
            ring.push(img.px(right as usize, cy.round() as usize));
        }
    }
    let backgrounds: Vec<[u8; 3]> = [median(gap), median(ring)].into_iter().flatten().collect();

    let (mut colours, known_empty) = match before {
        Some(b) => (b.palette.clone(), b.empty),
        None => (Vec::new(), None),
    };
    let fixed = before.is_some();
    let mut index = Vec::with_capacity(samples.len());
    let mut unmatched = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        match colours.iter().position(|c| dist(*c, *s) <= COLOUR_TOLERANCE) {
            Some(k) => index.push(Some(k)),
            None if fixed => {
                index.push(None);
                unmatched.push(i);
            }
            None => {
                colours.push(*s);
                index.push(Some(colours.len() - 1));
            }
        }
    }
    // The empty colour: known, or a cluster the background explains and gravity allows.
    let mut empty = known_empty;
    if fixed {
        for &i in &unmatched {
            let s = samples[i];
            let is_empty = match empty {
                Some(e) => dist(e, s) <= COLOUR_TOLERANCE,
                // The first empty cells of the game: one new colour, where gravity leaves
                // holes (checked below with the board), or the background's.
                None => {
                    backgrounds.iter().any(|b| dist(*b, s) <= COLOUR_TOLERANCE)
                        || unmatched.iter().all(|&j| dist(samples[j], s) <= COLOUR_TOLERANCE)
                }
            };
            if !is_empty {
                let (c, row) = (i % g.cols, i / g.cols);
                return Err(format!(
                    "cell ({c}, {row}) shows a colour {s:?} the board did not have"
                ));
            }
            empty.get_or_insert(s);
        }
    } else {
        let mut best: Option<(usize, usize)> = None;
        for (k, c) in colours.iter().enumerate() {
            if !backgrounds.iter().any(|b| dist(*b, *c) <= COLOUR_TOLERANCE) {
                continue;
            }
            let marks: Vec<bool> = index.iter().map(|x| *x == Some(k)).collect();
            let n = marks.iter().filter(|m| **m).count();
            if gravity_holds(&marks, g.cols, g.rows) && best.is_none_or(|b| n > b.1) {
                best = Some((k, n));
            }
        }
        if let Some((k, _)) = best {
            empty = Some(colours.remove(k));
            for x in index.iter_mut() {
                *x = match *x {
                    Some(j) if j == k => None,
                    Some(j) if j > k => Some(j - 1),
                    other => other,
                };
            }
        }
    }
    if colours.len() > crate::board::MAX_COLORS {
        return Err(format!(
            "{} tile colours found, at most {} (is the grid right? see --calibrate)",
            colours.len(),
            crate::board::MAX_COLORS
        ));
    }
    let cells: Vec<Option<u8>> = index.iter().map(|x| x.map(|k| k as u8)).collect();
    let empty_marks: Vec<bool> = cells.iter().map(Option::is_none).collect();
    if !gravity_holds(&empty_marks, g.cols, g.rows) {
        if let (true, Some(&i)) = (fixed, unmatched.first()) {
            // The new colour was no empty cell after all.
            let (c, row) = (i % g.cols, i / g.cols);
            return Err(format!(
                "cell ({c}, {row}) shows a colour {:?} the board did not have",
                samples[i]
            ));
        }
        return Err("the empty cells are not where gravity leaves them (a board in motion?)".into());
    }
    let mut text = String::with_capacity(g.rows * (g.cols + 1));
    for row in 0..g.rows {
        for col in 0..g.cols {
            text.push(match cells[row * g.cols + col] {
                Some(k) => char::from(b'0' + k),
                None => '.',
            });
        }
        text.push('\n');
    }
    let board: Board = text.parse().map_err(|e| format!("the board read is not a board: {e}"))?;
    Ok(Reading { grid: *g, palette: colours, empty, cells, board })
}
