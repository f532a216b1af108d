//! The learning rule and step the games' n-tuple networks share.
//!
//! Temporal coherence (Beal and Smith 1999, as used for 2048 by Jaśkowski 2016): each weight
//! keeps `E`, the sum of the TD errors it has been moved by, and `A`, the sum of their absolute
//! values, and moves by `beta * |E| / A * err`, so a weight whose errors keep one sign learns at
//! the full rate and one that oscillates slows down.
//!
//! ```
//! let (mut w, mut ea) = (0.0f32, [0.0f32, 0.0]);
//! bits::learn::tc_step(&mut w, &mut ea, 2.0, 0.5);
//! assert_eq!((w, ea), (1.0, [2.0, 2.0]));
//! bits::learn::tc_step(&mut w, &mut ea, -2.0, 0.5);
//! assert_eq!((w, ea), (0.0, [0.0, 4.0]));
//! ```

/// One weight's temporal coherence step: `ea` is `[E, A]`, `err` the TD error, `beta` the
/// meta step size. A weight never moved (`A == 0`) learns at the full rate.
#[inline(always)]
pub fn tc_step(w: &mut f32, ea: &mut [f32; 2], err: f32, beta: f32) {
    let [e, a] = *ea;
    let rate = if a == 0.0 { 1.0 } else { e.abs() / a };
    *w += beta * rate * err;
    *ea = [e + err, a + err.abs()];
}

/// How an n-tuple network learns from its TD errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// TD(0): each weight a value reads moves by `alpha * error`.
    #[default]
    Td,
    /// Temporal coherence (Beal and Smith 1999; Jaśkowski 2016): weight `i` moves by
    /// `alpha * |E_i| / A_i * error` ([`tc_step`]), with the accumulators kept beside the
    /// weights.
    Tc,
}
