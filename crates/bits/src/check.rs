//! `bitarcade bits check`: which PEXT path this machine uses, whether the BMI2 instructions
//! agree with the portable twins on random cases, and what each costs. The report prints as
//! the CLI prints it (`Display`).

use std::fmt::{self, Display, Formatter};
use std::hint::black_box;
use std::time::Instant;

use crate::job::Error;
use crate::pext::{self, PextImpl};

/// The outcome of [`check`].
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckReport {
    /// Whether the CPU has BMI2.
    pub cpu_has_bmi2: bool,
    /// The path asked for in [`pext::ENV_VAR`], if any.
    pub env_request: Option<String>,
    /// The path in use.
    pub active_path: &'static str,
    /// Random cases compared.
    pub cases: u64,
    /// Their seed.
    pub seed: u64,
    /// Whether BMI2 and portable agreed on every case (none without BMI2).
    pub paths_agree: Option<bool>,
    /// Nanoseconds per `pext_u64` on the active path.
    pub ns_per_pext_u64_active: f64,
    /// On the portable path.
    pub ns_per_pext_u64_portable: f64,
    /// On the BMI2 instruction (none without BMI2).
    pub ns_per_pext_u64_bmi2: Option<f64>,
}

fn time_ns(cases: &[(u64, u64)], f: impl Fn(u64, u64) -> u64) -> f64 {
    let start = Instant::now();
    let mut acc = 0u64;
    for &(x, m) in cases {
        acc ^= f(black_box(x), black_box(m));
    }
    black_box(acc);
    start.elapsed().as_nanos() as f64 / cases.len().max(1) as f64
}

/// Compares the BMI2 and portable paths on `cases` random cases (1 to 100,000,000) from
/// `seed`, and times each. Disagreement is reported in the response, not as an error.
pub fn check(cases: u64, seed: u64) -> Result<CheckReport, Error> {
    if cases == 0 || cases > 100_000_000 {
        return Err(Error::input("--cases must be between 1 and 100000000"));
    }
    let env_request = match pext::env_request() {
        Ok(p) => p.map(|p| p.name().to_string()),
        Err(v) => {
            return Err(Error::input(format!(
                "{}={v:?} is not understood (use portable, bmi2 or auto)",
                pext::ENV_VAR
            )))
        }
    };
    let mut rng = crate::Rng::new(seed);
    let data: Vec<(u64, u64)> =
        (0..cases).map(|_| (rng.next_u64(), rng.next_u64() & rng.next_u64())).collect();
    let hw = pext::Bmi2::detect();
    let paths_agree = hw.map(|hw| {
        data.iter().all(|&(x, m)| {
            hw.pext_u64(x, m) == pext::pext_u64_portable(x, m)
                && hw.pdep_u64(x, m) == pext::pdep_u64_portable(x, m)
                && hw.pext_u32(x as u32, m as u32) == pext::pext_u32_portable(x as u32, m as u32)
                && hw.pdep_u32(x as u32, m as u32) == pext::pdep_u32_portable(x as u32, m as u32)
        })
    });
    Ok(CheckReport {
        cpu_has_bmi2: pext::bmi2_available(),
        env_request,
        active_path: pext::active_path().name(),
        cases,
        seed,
        paths_agree,
        ns_per_pext_u64_active: time_ns(&data, crate::pext_u64),
        ns_per_pext_u64_portable: time_ns(&data, pext::pext_u64_portable),
        ns_per_pext_u64_bmi2: hw.map(|hw| time_ns(&data, |x, m| hw.pext_u64(x, m))),
    })
}

impl CheckReport {
    /// `Err(Error::Failed)` when the paths disagreed.
    pub fn verdict(&self) -> Result<(), Error> {
        match self.paths_agree {
            Some(false) => Err(Error::failed("the BMI2 and portable paths disagree")),
            _ => Ok(()),
        }
    }
}

impl Display for CheckReport {
    /// The paths, their agreement and their costs, a line each.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(f, "CPU has BMI2:      {}", if self.cpu_has_bmi2 { "yes" } else { "no" })?;
        let env = self.env_request.as_deref().unwrap_or("(unset: auto)");
        writeln!(f, "{}:    {env}", pext::ENV_VAR)?;
        writeln!(f, "active PEXT path:  {}", self.active_path)?;
        match self.paths_agree {
            Some(ok) => writeln!(
                f,
                "bmi2 vs portable:  {} on {} random cases (seed {})",
                if ok { "agree" } else { "DISAGREE" },
                self.cases,
                self.seed
            )?,
            None => writeln!(f, "bmi2 vs portable:  not compared (no BMI2)")?,
        }
        writeln!(f, "ns per pext_u64:   active {:.2}", self.ns_per_pext_u64_active)?;
        writeln!(f, "                   portable {:.2}", self.ns_per_pext_u64_portable)?;
        if let Some(ns) = self.ns_per_pext_u64_bmi2 {
            writeln!(f, "                   bmi2 {ns:.2}")?;
        }
        Ok(())
    }
}
