//! The gate: the packed engine (run linking, PEXT gravity) and the reference engine (a byte per
//! cell, flood fill, loop gravity) agree on groups, scores and resulting boards for 100,000+
//! random (board, move) cases across sizes and colour counts, on both PEXT paths.

use bits::{pext, PextPath, Rng};
use samegame::reference::RefBoard;
use samegame::{has_pair, play, Board, Groups, Rules, Sweeps};

/// A random board, then a random number of random moves, so boards have ragged columns and
/// closed gaps, not only full rectangles.
fn random_position(rng: &mut Rng) -> Board {
    let w = 1 + rng.below(20) as usize;
    let h = 1 + rng.below(20) as usize;
    let colors = 2 + rng.below(6) as usize;
    let mut b = Board::random(w, h, colors, rng.next_u64());
    let mut groups = Groups::new();
    let moves = rng.below(12);
    for _ in 0..moves {
        let list = groups.find(&b, 2);
        if list.is_empty() {
            break;
        }
        let g = list[rng.below(list.len() as u64) as usize];
        groups.remove(&mut b, &g);
    }
    b
}

fn gate(path: PextPath, cases: usize, seed: u64) {
    if pext::set_path(path).is_err() {
        eprintln!("note: {path} path unavailable on this CPU; gating the portable path only");
    }
    let rules = Rules::default();
    let mut rng = Rng::new(seed);
    let mut groups = Groups::new();
    let (mut sweeps, mut childg) = (Sweeps::new(), Groups::new());
    let mut done = 0;
    while done < cases {
        let b = random_position(&mut rng);
        let r = RefBoard::from_board(&b);
        let min_group = 2 + (rng.below(4) == 0) as u32;
        let fast: Vec<_> = groups
            .find(&b, min_group)
            .iter()
            .map(|g| (g.size, g.color, g.x as usize, g.y as usize))
            .collect();
        let slow: Vec<_> =
            r.groups(min_group).iter().map(|g| (g.size, g.color, g.x, g.y)).collect();
        assert_eq!(fast, slow, "groups differ (min {min_group}) on\n{b}");
        let loose: u32 = r.tiles() as u32 - slow.iter().map(|g| g.0).sum::<u32>();
        assert_eq!(groups.loose, loose, "loose tiles on\n{b}");
        let mut light = Groups::new();
        let summary: Vec<_> = light
            .summarize(&b, min_group)
            .iter()
            .map(|g| (g.size, g.color, g.x as usize, g.y as usize))
            .collect();
        assert_eq!((summary, light.loose), (slow.clone(), loose), "summarize on\n{b}");
        let pot = light.potential(&b, &Rules { min_group, ..rules });
        let slow_points: i64 = slow.iter().map(|g| rules.points(g.0)).sum();
        assert_eq!(
            (pot.points, pot.groups as usize, pot.loose),
            (slow_points, slow.len(), loose),
            "potential on\n{b}"
        );
        // Every child's potential from the parent's sweeps equals the potential found on the
        // child itself (which the line above gates against the reference).
        let mrules = Rules { min_group, ..rules };
        sweeps.build(&groups, &b, &mrules);
        // The fused form finds the same groups.
        let fused: Vec<_> = childg
            .find_with_sweeps(&b, &mrules, &mut sweeps)
            .iter()
            .map(|g| (g.size, g.color, g.x as usize, g.y as usize, g.x_lo, g.x_hi))
            .collect();
        let plain: Vec<_> = groups
            .list()
            .iter()
            .map(|g| (g.size, g.color, g.x as usize, g.y as usize, g.x_lo, g.x_hi))
            .collect();
        assert_eq!(fused, plain, "find_with_sweeps on\n{b}");
        // Every group's cells in one pass, from either finder, as `masks` gives them.
        let mut want = Vec::new();
        for g in groups.list() {
            let span = usize::from(g.x_hi - g.x_lo) + 1;
            let at = want.len();
            want.resize(at + span, 0);
            groups.masks(g, &mut want[at..]);
        }
        let (mut from_find, mut from_fused) = (vec![7], vec![7]);
        groups.all_masks(&mut from_find);
        childg.all_masks(&mut from_fused);
        assert_eq!(from_find[1..], want[..], "all_masks after find on\n{b}");
        assert_eq!(from_fused[1..], want[..], "all_masks after find_with_sweeps on\n{b}");
        for g in groups.list().to_vec() {
            let mut child = b.clone();
            groups.remove(&mut child, &g);
            let inc = childg.potential_child(
                &sweeps,
                &child,
                usize::from(g.x_lo),
                usize::from(g.x_hi),
                &mrules,
            );
            assert_eq!(
                inc,
                light.potential(&child, &mrules),
                "potential_child after ({}, {}) from\n{b}",
                g.x,
                g.y
            );
        }
        // A pair exists iff some group of two or more exists.
        assert_eq!(has_pair(&b), !r.groups(2).is_empty(), "has_pair on\n{b}");
        // Several moves per position keeps the reference's cost down and still covers
        // every kind of group.
        for _ in 0..4.min(fast.len()) {
            let k = rng.below(fast.len() as u64) as usize;
            let g = groups.list()[k];
            let mut fb = b.clone();
            groups.remove(&mut fb, &g);
            let mut rb = r.clone();
            let n = rb.remove(g.x as usize, g.y as usize);
            assert_eq!(n as u32, g.size);
            assert_eq!(fb.to_string(), rb.to_text(), "after removing ({}, {}) from\n{b}", g.x, g.y);
            // The checked play, with any tile of the group, gives the same board and points.
            let mut pb = b.clone();
            let (size, pts) = play(&mut pb, g.x as usize, g.y as usize, &rules).unwrap();
            assert_eq!((size, pb.to_string()), (g.size, fb.to_string()));
            let want = rules.points(g.size) + if fb.is_clear() { rules.clear_bonus } else { 0 };
            assert_eq!(pts, want);
            assert_eq!(fb.tiles() as usize, rb.tiles());
            assert_ne!(fb.hash64(), b.hash64());
            done += 1;
        }
    }
}

/// One test switches the process-wide path, so the two halves really run on different paths
/// (no other test in this binary touches the switch).
#[test]
fn gate_on_both_pext_paths() {
    gate(PextPath::Bmi2, 60_000, 1);
    assert!(pext::active_path() == PextPath::Bmi2 || !pext::bmi2_available());
    gate(PextPath::Portable, 60_000, 2);
    assert_eq!(pext::active_path(), PextPath::Portable);
}

#[test]
fn full_boards_of_every_size_and_colour_count() {
    let mut groups = Groups::new();
    for w in [1usize, 2, 5, 15, 31, 32, 33, 64] {
        for h in [1usize, 2, 15, 31, 32] {
            for colors in 1..=8 {
                let b = Board::random(w, h, colors, (w * 1000 + h * 10 + colors) as u64);
                let r = RefBoard::from_board(&b);
                let fast: Vec<_> = groups
                    .find(&b, 2)
                    .iter()
                    .map(|g| (g.size, g.x as usize, g.y as usize))
                    .collect();
                let slow: Vec<_> = r.groups(2).iter().map(|g| (g.size, g.x, g.y)).collect();
                assert_eq!(fast, slow, "{w}x{h}, {colors} colours");
            }
        }
    }
}

#[test]
fn illegal_clicks_are_refused() {
    let rules = Rules::default();
    let mut b: Board = "12\n21\n".parse().unwrap();
    assert!(play(&mut b, 0, 0, &rules).is_err()); // a single tile
    assert!(play(&mut b, 5, 0, &rules).is_err()); // off the board
    assert!(play(&mut b, 0, 7, &rules).is_err());
    assert_eq!(b.to_string(), "12\n21\n");
}
