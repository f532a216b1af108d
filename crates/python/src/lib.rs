//! `bitarcade._core`: the Rust half of the Python package `bitarcade` (python/). The Python
//! half wraps these classes in gymnasium environments, game states and the batch runner.
//!
//! - [`mod@env`]: the environments' core, written once over the [`env::EnvGame`] primitives each
//!   game gives in [`games`]; one class per game steps N environments in one call.

use bits::live::{Caps, Game};
use numpy::ndarray::IxDyn;
use numpy::{
    PyArray, PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArrayDyn,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use long::{parse, to_py};

pub mod batch;
pub mod calls;
pub mod env;
#[macro_use]
mod game;
pub mod games;
pub mod long;
pub mod solvers;

use env::{EnvGame, Envs, Out};

/// A one-line message as Python's ValueError.
pub(crate) fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// A numpy buffer's contents (of any dimension), which must be contiguous and hold `len`
/// entries.
fn buffer<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    name: &str,
    a: &'a mut numpy::PyReadwriteArray<'_, T, D>,
    len: usize,
) -> PyResult<&'a mut [T]> {
    let s = a.as_slice_mut().map_err(|_| value_error(format!("{name}: not a contiguous array")))?;
    if s.len() != len {
        return Err(value_error(format!("{name}: {} entries, expected {len}", s.len())));
    }
    Ok(s)
}

/// One environment class per game: N environments stepped in one call.
macro_rules! env_class {
    ($name:ident, $game:ty, $title:literal) => {
        #[doc = concat!("N ", $title, " environments stepped together (see the `env` module).")]
        #[pyclass(module = "bitarcade._core")]
        pub struct $name {
            envs: Envs<$game>,
            shape: Vec<usize>,
        }

        #[pymethods]
        impl $name {
            #[new]
            #[pyo3(signature = (num_envs, options = "{}", rules = "{}"))]
            fn new(num_envs: usize, options: &str, rules: &str) -> PyResult<Self> {
                let envs = Envs::<$game>::new(num_envs, options, rules).map_err(value_error)?;
                let shape = <$game as EnvGame>::shape(&envs.opts);
                Ok(Self { envs, shape })
            }

            /// An independent copy (every environment's game and counters).
            fn copy(&self) -> Self {
                Self { envs: self.envs.clone(), shape: self.shape.clone() }
            }

            /// The observation's shape.
            #[getter]
            fn shape(&self) -> Vec<usize> {
                self.shape.clone()
            }

            /// The number of actions.
            #[getter]
            fn actions(&self) -> usize {
                self.envs.actions()
            }

            /// The number of environments.
            #[getter]
            fn num_envs(&self) -> usize {
                self.envs.slots.len()
            }

            /// Resets every environment (to episode 0 of `seeds[i]`, or to its next
            /// episode), writing into `obs` and `mask`.
            #[pyo3(signature = (seeds, obs, mask))]
            fn reset(
                &mut self,
                seeds: Option<Vec<u64>>,
                mut obs: PyReadwriteArrayDyn<'_, u8>,
                mut mask: PyReadwriteArrayDyn<'_, i8>,
            ) -> PyResult<()> {
                let n = self.envs.slots.len();
                if let Some(s) = &seeds {
                    if s.len() != n {
                        return Err(value_error(format!(
                            "seed: {} seeds for {n} environments",
                            s.len()
                        )));
                    }
                }
                let o = buffer("obs", &mut obs, n * self.envs.obs_len())?;
                let m = buffer("mask", &mut mask, n * self.envs.actions())?;
                self.envs.reset(seeds.as_deref(), o, m);
                Ok(())
            }

            /// Steps every environment with `actions`, writing the results into the
            /// buffers (an ended environment starts its next episode instead).
            #[allow(clippy::too_many_arguments)]
            fn step(
                &mut self,
                py: Python<'_>,
                actions: PyReadonlyArray1<'_, i64>,
                mut obs: PyReadwriteArrayDyn<'_, u8>,
                mut reward: PyReadwriteArray1<'_, f64>,
                mut terminated: PyReadwriteArray1<'_, bool>,
                mut truncated: PyReadwriteArray1<'_, bool>,
                mut mask: PyReadwriteArrayDyn<'_, i8>,
            ) -> PyResult<()> {
                let n = self.envs.slots.len();
                let a = actions.as_slice().map_err(|_| value_error("actions: not a contiguous array"))?;
                self.envs.check_actions(a).map_err(value_error)?;
                let out = Out {
                    obs: buffer("obs", &mut obs, n * self.envs.obs_len())?,
                    reward: buffer("reward", &mut reward, n)?,
                    terminated: buffer("terminated", &mut terminated, n)?,
                    truncated: buffer("truncated", &mut truncated, n)?,
                    mask: buffer("mask", &mut mask, n * self.envs.actions())?,
                };
                let envs = &mut self.envs;
                if n >= 256 {
                    py.detach(|| envs.step(a, out));
                } else {
                    envs.step(a, out);
                }
                Ok(())
            }

            /// Environment 0 reset to episode 0 of `seed` (or its next episode): the
            /// observation and the mask, as new arrays.
            #[pyo3(signature = (seed = None))]
            fn reset1<'py>(
                &mut self,
                py: Python<'py>,
                seed: Option<u64>,
            ) -> PyResult<(Bound<'py, PyArray<u8, IxDyn>>, Bound<'py, PyArray1<i8>>)> {
                let mut o = vec![0u8; self.envs.obs_len()];
                let mut m = vec![0i8; self.envs.actions()];
                let opts = &self.envs.opts;
                let s = self.envs.slots.first_mut().expect("at least one environment");
                s.reset_to(opts, seed);
                s.game.observe(opts, &mut o);
                s.game.mask(opts, &mut m);
                Ok((
                    PyArray1::from_vec(py, o).reshape(self.shape.as_slice())?,
                    PyArray1::from_vec(py, m),
                ))
            }

            /// Environment 0 steps with `action`: the observation, the reward, terminated,
            /// truncated and the mask (a step after the episode's end is an error).
            #[allow(clippy::type_complexity)]
            fn step1<'py>(
                &mut self,
                py: Python<'py>,
                action: i64,
            ) -> PyResult<(Bound<'py, PyArray<u8, IxDyn>>, f64, bool, bool, Bound<'py, PyArray1<i8>>)> {
                let na = self.envs.actions();
                if action < 0 || action as u64 >= na as u64 {
                    return Err(value_error(format!("action: {action} is not an action (0 to {})", na - 1)));
                }
                let ol = self.envs.obs_len();
                let (opts, rules) = (&self.envs.opts, &self.envs.rules);
                let s = self.envs.slots.first_mut().expect("at least one environment");
                if s.ended() {
                    return Err(PyRuntimeError::new_err("the episode has ended: call reset() first"));
                }
                let (r, t, u) = s.step(opts, rules, action as usize);
                let mut o = vec![0u8; ol];
                let mut m = vec![0i8; na];
                s.game.observe(opts, &mut o);
                s.game.mask(opts, &mut m);
                Ok((
                    PyArray1::from_vec(py, o).reshape(self.shape.as_slice())?,
                    r,
                    t,
                    u,
                    PyArray1::from_vec(py, m),
                ))
            }

            /// Environment `i`'s position in the game's text form.
            fn text(&self, i: usize) -> PyResult<String> {
                Ok(<$game as EnvGame>::text(&self.slot(i)?.game))
            }

            /// Environment `i`'s game record, as the CLI's `--record` writes it (JSON).
            fn record(&self, i: usize) -> PyResult<String> {
                <$game as EnvGame>::record(&self.slot(i)?.game, &self.envs.opts)
                    .map_err(PyRuntimeError::new_err)
            }

            /// Environment `i`'s action mask now.
            fn mask<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyArray1<i8>>> {
                let mut m = vec![0i8; self.envs.actions()];
                self.slot(i)?.game.mask(&self.envs.opts, &mut m);
                Ok(PyArray1::from_vec(py, m))
            }

            /// Environment `i`'s score.
            fn score(&self, i: usize) -> PyResult<i64> {
                Ok(<$game as EnvGame>::score(&self.slot(i)?.game))
            }

            /// Environment `i`'s seed now (the CLI's game it plays), the seed of its last
            /// seeded reset and the episodes since.
            fn seed(&self, i: usize) -> PyResult<(u64, u64, u64)> {
                let s = self.slot(i)?;
                Ok((s.seed(), s.master, s.episode))
            }
        }

        impl $name {
            fn slot(&self, i: usize) -> PyResult<&env::Slot<$game>> {
                self.envs.slots.get(i).ok_or_else(|| {
                    value_error(format!("index: {i} is past the {} environments", self.envs.slots.len()))
                })
            }
        }
    };
}

env_class!(Env2048, games::twenty48::Twenty48, "2048");
env_class!(EnvSnake, games::snake::Snake, "Snake");
env_class!(EnvDrop7, games::drop7::Drop7, "Drop7");
env_class!(EnvSameGame, games::samegame::SameGame, "SameGame");
env_class!(EnvTetris, games::tetris::Tetris, "Tetris");

game_class!(SameGame, samegame::api::live::contract::SameGame, "SameGame");
game_class!(Tetris, tetris::api::contract::Tetris, "Tetris");
game_class!(Drop7, drop7::api::contract::Drop7, "Drop7");
game_class!(Twenty48, twenty48::api::contract::Twenty48, "2048");
game_class!(Snake, snake::api::contract::Snake, "Snake");

/// Runs a verb by name on a request (JSON) and returns its whole response (JSON), off the GIL;
/// Ctrl-C stops it. `progress(done, total, message)` is called now and then.
#[pyfunction]
#[pyo3(signature = (verb, request = "{}", progress = None))]
fn run(
    py: Python<'_>,
    verb: &str,
    request: &str,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    long::run(py, progress, |ctl| calls::run(verb, request, ctl))
}

/// The verbs `run` knows: (name, what it does).
#[pyfunction]
fn verbs() -> Vec<(&'static str, &'static str)> {
    calls::VERBS.to_vec()
}

/// Part `k` of `n` of a batch verb on a request (JSON): its whole response (JSON), off the GIL.
#[pyfunction]
#[pyo3(signature = (verb, request, k, n, progress = None))]
fn batch_shard(
    py: Python<'_>,
    verb: &str,
    request: &str,
    k: u64,
    n: u64,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    long::run(py, progress, |ctl| batch::shard(verb, request, k, n, ctl))
}

/// The parts' responses joined into what one process prints for the whole batch.
#[pyfunction]
#[pyo3(signature = (verb, request, parts, json, seconds, threads))]
fn batch_merge(
    verb: &str,
    request: &str,
    parts: Vec<String>,
    json: bool,
    seconds: f64,
    threads: usize,
) -> PyResult<String> {
    batch::merge(verb, request, &parts, json, seconds, threads).map_err(to_py)
}

/// Checks a batch verb's request (JSON) before any shard runs.
#[pyfunction]
fn batch_check(verb: &str, request: &str) -> PyResult<()> {
    batch::check(verb, request).map_err(to_py)
}

/// The verbs that split into shards: (name, how).
#[pyfunction]
fn batch_verbs() -> Vec<(&'static str, &'static str)> {
    batch::BATCH_VERBS.to_vec()
}

/// The module `bitarcade._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Env2048>()?;
    m.add_class::<EnvSnake>()?;
    m.add_class::<EnvDrop7>()?;
    m.add_class::<EnvSameGame>()?;
    m.add_class::<EnvTetris>()?;
    m.add_class::<SameGame>()?;
    m.add_class::<Tetris>()?;
    m.add_class::<Drop7>()?;
    m.add_class::<Twenty48>()?;
    m.add_class::<Snake>()?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(verbs, m)?)?;
    m.add_function(wrap_pyfunction!(batch_shard, m)?)?;
    m.add_function(wrap_pyfunction!(batch_merge, m)?)?;
    m.add_function(wrap_pyfunction!(batch_verbs, m)?)?;
    m.add_function(wrap_pyfunction!(batch_check, m)?)?;
    m.add_class::<solvers::Expectimax2048>()?;
    m.add_function(wrap_pyfunction!(solvers::pack_2048, m)?)?;
    m.add("DIRS_2048", solvers::letters())?;
    Ok(())
}
