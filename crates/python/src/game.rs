//! One class per game over the live contract (`bits::live::Game`): a game from a setup and a
//! seed, its legal moves, play, copy, text, status, snapshot, record, and the game's solver
//! (hint for one move, auto to play on). Moves are the game's notation, as in the CLI and the
//! web arcade.

/// The class of one game.
macro_rules! game_class {
    ($name:ident, $game:ty, $title:literal) => {
        #[doc = concat!("A ", $title, " game on the live contract.")]
        #[pyclass(module = "bitarcade._core", skip_from_py_object)]
        #[derive(Clone)]
        pub struct $name {
            setup: <$game as Game>::Setup,
            seed: u64,
            state: <$game as Game>::State,
            moves: Vec<<$game as Game>::Move>,
        }

        #[pymethods]
        impl $name {
            /// The game of `setup` (JSON, the contract's setup) and `seed`.
            #[new]
            #[pyo3(signature = (seed = 1, setup = "{}"))]
            fn new(seed: u64, setup: &str) -> PyResult<Self> {
                let setup: <$game as Game>::Setup = parse("setup", setup).map_err(to_py)?;
                let state = <$game as Game>::start(&setup, seed).map_err(to_py)?;
                Ok(Self { setup, seed, state, moves: Vec::new() })
            }

            /// The game of a record (JSON, as the CLI's `--record` writes it), after the
            /// game's own replay has accepted it; `index` picks one of a list.
            #[staticmethod]
            #[pyo3(signature = (record, index = 0))]
            fn from_record(record: &str, index: usize) -> PyResult<Self> {
                let (rec, _) =
                    bits::live::read_record::<$game>(record, index, &[]).map_err(to_py)?;
                let (setup, seed, moves) = <$game as Game>::unrecord(&rec).map_err(to_py)?;
                let mut g = Self::new_of(setup, seed)?;
                for m in moves {
                    g.apply(m)?;
                }
                Ok(g)
            }

            /// The legal moves, in the game's notation and order.
            fn legal(&self) -> Vec<String> {
                <$game as Game>::legal(&self.state).iter().map(|m| m.to_string()).collect()
            }

            /// Plays one move (the game's notation) or several (its move list); an illegal
            /// move raises ValueError and changes nothing.
            fn play(&mut self, moves: &str) -> PyResult<()> {
                let list = bits::live::parse_moves::<$game>(moves).map_err(to_py)?;
                let mut next = self.clone();
                for m in list {
                    next.apply(m)?;
                }
                *self = next;
                Ok(())
            }

            /// An independent copy.
            fn copy(&self) -> Self {
                self.clone()
            }

            fn __copy__(&self) -> Self {
                self.clone()
            }

            fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
                self.clone()
            }

            fn __str__(&self) -> String {
                <$game as Game>::text(&self.state)
            }

            fn __repr__(&self) -> String {
                format!("<{} seed={} moves={:?}>", $title, self.seed, self.moves_text())
            }

            /// The moves played, as one move list.
            #[getter]
            fn moves(&self) -> String {
                self.moves_text()
            }

            /// The seed.
            #[getter]
            fn seed(&self) -> u64 {
                self.seed
            }

            /// The setup, as JSON.
            #[getter]
            fn setup(&self) -> String {
                serde_json::to_string(&self.setup).unwrap_or_default()
            }

            /// The score now.
            #[getter]
            fn score(&self) -> i64 {
                <$game as Game>::score(&self.state)
            }

            /// How the game stands: (phase, code, message).
            #[getter]
            fn status(&self) -> (String, String, String) {
                let s = <$game as Game>::status(&self.state);
                let phase =
                    serde_json::to_value(s.phase).ok().and_then(|v| v.as_str().map(String::from));
                (phase.unwrap_or_default(), s.code, s.message)
            }

            /// The position, structured (JSON).
            fn snapshot(&self) -> PyResult<String> {
                serde_json::to_string(&<$game as Game>::snapshot(&self.state))
                    .map_err(|e| PyRuntimeError::new_err(e.to_string()))
            }

            /// The game's record (JSON, the CLI's); `player` names who played.
            #[pyo3(signature = (player = "hand"))]
            fn record(&self, player: &str) -> PyResult<String> {
                serde_json::to_string(&<$game as Game>::record(&self.state, player))
                    .map_err(|e| PyRuntimeError::new_err(e.to_string()))
            }

            /// The solver's move and every legal move's value (JSON), with `search` (JSON,
            /// the game's search settings, the CLI's defaults where absent).
            #[pyo3(signature = (search = "{}", progress = None))]
            fn hint(
                &self,
                py: Python<'_>,
                search: &str,
                progress: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<String> {
                let req = bits::live::HintRequest::<$game> {
                    from: self.position(),
                    search: parse("search", search).map_err(to_py)?,
                };
                let h = long::run(py, progress, |ctl| bits::live::hint(&req, &Caps::NONE, ctl))?;
                serde_json::to_string(&h).map_err(|e| PyRuntimeError::new_err(e.to_string()))
            }

            /// The solver plays on from here, at most `max_moves` moves; the moves are played
            /// on this game too. Returns the run (JSON: played, stop, status, score, moves,
            /// record).
            #[pyo3(signature = (search = "{}", max_moves = u64::MAX, progress = None))]
            fn auto(
                &mut self,
                py: Python<'_>,
                search: &str,
                max_moves: u64,
                progress: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<String> {
                let req = bits::live::AutoRequest::<$game> {
                    from: self.position(),
                    search: parse("search", search).map_err(to_py)?,
                    max_moves,
                };
                let r = long::run(py, progress, |ctl| bits::live::auto(&req, &Caps::NONE, ctl))?;
                let all = bits::live::parse_moves::<$game>(&r.moves).map_err(to_py)?;
                let mut next = self.clone();
                for m in all.into_iter().skip(self.moves.len()) {
                    next.apply(m)?;
                }
                *self = next;
                serde_json::to_string(&r).map_err(|e| PyRuntimeError::new_err(e.to_string()))
            }
        }

        impl $name {
            fn new_of(setup: <$game as Game>::Setup, seed: u64) -> PyResult<Self> {
                let state = <$game as Game>::start(&setup, seed).map_err(to_py)?;
                Ok(Self { setup, seed, state, moves: Vec::new() })
            }

            fn apply(&mut self, m: <$game as Game>::Move) -> PyResult<()> {
                <$game as Game>::play(&mut self.state, &m).map_err(|e| {
                    PyValueError::new_err(format!("move {} ({m}): {e}", self.moves.len() + 1))
                })?;
                self.moves.push(m);
                Ok(())
            }

            fn moves_text(&self) -> String {
                bits::live::format_moves::<$game>(&self.moves)
            }

            fn position(&self) -> bits::live::PositionRequest<$game> {
                bits::live::PositionRequest {
                    setup: self.setup.clone(),
                    seed: self.seed,
                    moves: self.moves_text(),
                    ..Default::default()
                }
            }
        }
    };
}
