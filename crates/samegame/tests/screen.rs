//! The pixel reader on screenshots drawn here with known boards: tiles of any size with gaps,
//! borders and gradients, boards anywhere on plain, gradient, checkered and noisy pages, a
//! device scale factor of 2, fractional pitches, and games in progress (empty cells, empty
//! columns) read with the grid and palette of their start.

use bits::Rng;
use samegame::screen::{find_grid, read, Image};
use samegame::{Board, Rules};

#[derive(Clone, Copy, Debug)]
enum Page {
    Plain,
    Gradient,
    Checker(usize),
    Noise,
}

#[derive(Clone, Copy, Debug)]
struct Style {
    /// Tile pitch in CSS pixels (may be fractional).
    pitch: f64,
    /// Gap between tiles.
    gap: f64,
    /// Darker outline width.
    border: usize,
    /// Tiles shaded from light (top) to dark (bottom).
    gradient: bool,
    /// The page.
    page: Page,
    /// The board's own background (shown by gaps and empty cells), else the page's.
    board_bg: Option<[u8; 3]>,
    /// Board origin on the page.
    at: (f64, f64),
    /// Device pixels per CSS pixel.
    scale: f64,
    palette: [[u8; 3]; 8],
}

const PALETTE_A: [[u8; 3]; 8] = [
    [220, 50, 50],
    [60, 180, 75],
    [50, 110, 230],
    [240, 200, 40],
    [160, 70, 200],
    [40, 200, 210],
    [250, 140, 30],
    [235, 235, 235],
];
const PALETTE_B: [[u8; 3]; 8] = [
    [255, 105, 180],
    [0, 128, 128],
    [255, 215, 0],
    [106, 90, 205],
    [139, 69, 19],
    [124, 252, 0],
    [30, 30, 30],
    [0, 191, 255],
];

fn page_colour(page: Page, x: usize, y: usize, rng: &mut Rng) -> [u8; 3] {
    match page {
        Page::Plain => [245, 240, 230],
        Page::Gradient => [(40 + x / 8 % 150) as u8, (60 + y / 6 % 120) as u8, 120],
        Page::Checker(s) => {
            if (x / s + y / s) % 2 == 0 {
                [200, 200, 210]
            } else {
                [170, 175, 190]
            }
        }
        Page::Noise => {
            let v = 90 + rng.below(60) as u8;
            [v, v, v + 10]
        }
    }
}

/// Draws `board` (cells as `Board::cell(x, y)`, y from the bottom) in `style`.
fn draw(board: &Board, style: &Style, seed: u64) -> Image {
    let (w, h) = (board.width(), board.height());
    let s = style.scale;
    let total_w = ((style.at.0 + style.pitch * w as f64 + 40.0) * s).ceil() as usize;
    let total_h = ((style.at.1 + style.pitch * h as f64 + 40.0) * s).ceil() as usize;
    let mut rng = Rng::new(seed);
    let mut img = Image::filled(total_w, total_h, [0, 0, 0]);
    for y in 0..total_h {
        for x in 0..total_w {
            let c = page_colour(style.page, x, y, &mut rng);
            img.set(x, y, c);
        }
    }
    let px = |v: f64| (v * s).round() as usize;
    if let Some(bg) = style.board_bg {
        img.fill_rect(
            px(style.at.0),
            px(style.at.1),
            px(style.pitch * w as f64),
            px(style.pitch * h as f64),
            bg,
        );
    }
    for row in 0..h {
        for col in 0..w {
            let Some(c) = board.cell(col, (h - 1 - row) as u32) else { continue };
            let base = style.palette[usize::from(c)];
            let x0 = px(style.at.0 + col as f64 * style.pitch + style.gap / 2.0);
            let y0 = px(style.at.1 + row as f64 * style.pitch + style.gap / 2.0);
            let x1 = px(style.at.0 + (col + 1) as f64 * style.pitch - style.gap / 2.0);
            let y1 = px(style.at.1 + (row + 1) as f64 * style.pitch - style.gap / 2.0);
            let b = px(style.border as f64);
            for y in y0..y1 {
                for x in x0..x1 {
                    let edge = x < x0 + b || x + b >= x1 || y < y0 + b || y + b >= y1;
                    let shade = if style.gradient {
                        // Light at the top, dark at the bottom: +24 .. -24.
                        24 - (48 * (y - y0) / (y1 - y0).max(1)) as i32
                    } else {
                        0
                    };
                    let mut p = base.map(|v| (i32::from(v) + shade).clamp(0, 255) as u8);
                    if edge {
                        p = base.map(|v| v / 2);
                    }
                    img.set(x, y, p);
                }
            }
        }
    }
    img
}

/// Whether `read` equals `truth` up to a renaming of the colours.
fn same_up_to_colours(read: &Board, truth: &Board) -> Result<(), String> {
    if (read.width(), read.height()) != (truth.width(), truth.height()) {
        return Err(format!(
            "size {}x{} read, {}x{} drawn",
            read.width(),
            read.height(),
            truth.width(),
            truth.height()
        ));
    }
    let mut map = [None::<u8>; 8];
    let mut back = [None::<u8>; 8];
    for x in 0..truth.width() {
        for y in 0..truth.height() as u32 {
            match (read.cell(x, y), truth.cell(x, y)) {
                (None, None) => {}
                (Some(a), Some(b)) => {
                    let (a, b) = (usize::from(a), usize::from(b));
                    if *map[a].get_or_insert(b as u8) != b as u8
                        || *back[b].get_or_insert(a as u8) != a as u8
                    {
                        return Err(format!("cell ({x}, {y}): colours do not match one to one"));
                    }
                }
                (r, t) => return Err(format!("cell ({x}, {y}): read {r:?}, drawn {t:?}")),
            }
        }
    }
    Ok(())
}

fn styles() -> Vec<Style> {
    let base = Style {
        pitch: 24.0,
        gap: 2.0,
        border: 0,
        gradient: false,
        page: Page::Plain,
        board_bg: Some([30, 34, 42]),
        at: (40.0, 30.0),
        scale: 1.0,
        palette: PALETTE_A,
    };
    vec![
        base,
        // The arcade-like page at a device scale factor of 2.
        Style { scale: 2.0, ..base },
        // Touching tiles with outlines on the page itself.
        Style { gap: 0.0, border: 2, board_bg: None, pitch: 20.0, ..base },
        // Gradient tiles, big gaps, off-centre on a gradient page.
        Style {
            gradient: true,
            gap: 6.0,
            pitch: 34.0,
            page: Page::Gradient,
            at: (133.0, 71.0),
            palette: PALETTE_B,
            ..base
        },
        // A checkered page whose squares are not the tile pitch, fractional pitch.
        Style { page: Page::Checker(7), pitch: 17.5, gap: 1.5, at: (55.5, 12.25), ..base },
        // Noise around the board, gradients and outlines, scale 2.
        Style {
            page: Page::Noise,
            gradient: true,
            border: 1,
            scale: 2.0,
            pitch: 15.0,
            palette: PALETTE_B,
            ..base
        },
        // Small tiles.
        Style { pitch: 9.0, gap: 1.0, ..base },
    ]
}

/// Plays `moves` random legal clicks on `board`.
fn play_some(board: &Board, moves: usize, rng: &mut Rng) -> Board {
    let mut b = board.clone();
    let rules = Rules::default();
    for _ in 0..moves {
        let mut legal = Vec::new();
        for x in 0..b.width() {
            for y in 0..b.height() as u32 {
                let mut t = b.clone();
                if samegame::play(&mut t, x, y as usize, &rules).is_ok() {
                    legal.push((x, y as usize));
                }
            }
        }
        if legal.is_empty() {
            break;
        }
        let (x, y) = legal[rng.below(legal.len() as u64) as usize];
        samegame::play(&mut b, x, y, &rules).unwrap();
    }
    b
}

#[test]
fn boards_are_read_exactly_in_every_style() {
    let sizes = [(15, 10, 3), (30, 20, 3), (15, 15, 5), (8, 12, 4), (20, 9, 6)];
    for (si, style) in styles().iter().enumerate() {
        for (bi, &(w, h, c)) in sizes.iter().enumerate() {
            let seed = (si * 10 + bi) as u64;
            let board = Board::random(w, h, c, seed);
            let img = draw(&board, style, seed);
            let grid = find_grid(&img).unwrap_or_else(|e| panic!("style {si} board {bi}: {e}"));
            assert_eq!((grid.cols, grid.rows), (w, h), "style {si} board {bi}: {grid:?}");
            let r =
                read(&img, &grid, None).unwrap_or_else(|e| panic!("style {si} board {bi}: {e}"));
            same_up_to_colours(&r.board, &board)
                .unwrap_or_else(|e| panic!("style {si} board {bi}: {e}"));
            assert_eq!(r.palette.len(), c, "style {si} board {bi}");
        }
    }
}

#[test]
fn games_in_progress_are_read_with_the_grid_and_palette_of_their_start() {
    let mut rng = Rng::new(99);
    for (si, style) in styles().iter().enumerate() {
        for g in 0..3u64 {
            let board = Board::random(15, 10, 3, 1000 + g);
            let img = draw(&board, style, g);
            let grid = find_grid(&img).unwrap();
            let mut prev = read(&img, &grid, None).unwrap();
            for moves in [3, 10, 30] {
                let later = play_some(&board, moves, &mut rng);
                let img = draw(&later, style, g);
                let r = read(&img, &grid, Some(&prev))
                    .unwrap_or_else(|e| panic!("style {si} game {g} after {moves}: {e}"));
                same_up_to_colours(&r.board, &later)
                    .unwrap_or_else(|e| panic!("style {si} game {g} after {moves}: {e}"));
                // The colour indices stay those of the start.
                assert_eq!(r.palette, prev.palette);
                prev = r;
            }
        }
    }
}

#[test]
fn a_board_with_empty_cells_is_read_without_a_palette_too() {
    let mut rng = Rng::new(5);
    let style = styles()[0];
    let start = Board::random(15, 10, 3, 77);
    // The grid is found on the full board (as the bot does at a game's start).
    let grid = find_grid(&draw(&start, &style, 1)).unwrap();
    let board = play_some(&start, 12, &mut rng);
    let img = draw(&board, &style, 1);
    let r = read(&img, &grid, None).unwrap();
    same_up_to_colours(&r.board, &board).unwrap();
    assert_eq!(r.empty, Some([30, 34, 42]));
}

#[test]
fn pages_without_a_board_are_refused_in_one_line() {
    let mut rng = Rng::new(3);
    for page in [Page::Plain, Page::Noise, Page::Gradient] {
        let mut img = Image::filled(300, 200, [0, 0, 0]);
        for y in 0..200 {
            for x in 0..300 {
                let c = page_colour(page, x, y, &mut rng);
                img.set(x, y, c);
            }
        }
        let e = find_grid(&img).unwrap_err();
        assert!(e.starts_with("no board found") && !e.contains('\n'), "{page:?}: {e}");
    }
    assert!(Image::new(2, 2, vec![0; 5]).is_err());
}

#[test]
fn a_colour_the_game_did_not_have_is_refused() {
    let style = styles()[0];
    let board = Board::random(10, 8, 3, 4);
    let img = draw(&board, &style, 0);
    let grid = find_grid(&img).unwrap();
    let start = read(&img, &grid, None).unwrap();
    let mut other = style;
    other.palette[1] = [255, 0, 255];
    let img = draw(&board, &other, 0);
    let e = read(&img, &grid, Some(&start)).unwrap_err();
    assert!(e.contains("did not have"), "{e}");
}

/// A PNG screenshot as an RGB image.
fn load_png(path: &std::path::Path) -> Image {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let (w, h) = (info.width as usize, info.height as usize);
    let channels = match info.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        c => panic!("{}: colour type {c:?}", path.display()),
    };
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let rgb = buf[..w * h * channels].chunks(channels).flat_map(|p| [p[0], p[1], p[2]]).collect();
    Image::new(w, h, rgb).unwrap()
}

/// The web arcade's own SameGame page in headless Chromium (written by
/// crates/arcade/e2e/fixtures.mjs): at scale 1 and 2, at a game's start, and after twelve
/// clicks (empty cells, the last click's cell marked) read with the grid and palette of the
/// start.
#[test]
fn screenshots_of_the_arcade_page_are_read_exactly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let truth = |name: &str| -> Board {
        std::fs::read_to_string(dir.join(format!("{name}.txt"))).unwrap().parse().unwrap()
    };
    let mut start = None;
    for name in ["arcade-15x15x4", "arcade-20x10x5-dpr2"] {
        let img = load_png(&dir.join(format!("{name}.png")));
        let grid = find_grid(&img).unwrap_or_else(|e| panic!("{name}: {e}"));
        let r = read(&img, &grid, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        same_up_to_colours(&r.board, &truth(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        start.get_or_insert(r);
    }
    let start = start.unwrap();
    let name = "arcade-15x15x4-played";
    let img = load_png(&dir.join(format!("{name}.png")));
    let r = read(&img, &start.grid, Some(&start)).unwrap_or_else(|e| panic!("{name}: {e}"));
    same_up_to_colours(&r.board, &truth(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
}
