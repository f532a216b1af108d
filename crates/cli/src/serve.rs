//! `bitarcade serve`: the web arcade on a local port.

use clap::Args;

use crate::common::{CliError, CliResult};

/// Play, watch and replay the games in a browser, served from this machine.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    bitarcade serve                      # http://127.0.0.1:8080/\n  \
    bitarcade serve --port 0 --open      # any free port, opened in the browser\n  \
    bitarcade serve --workers 1          # one solver job at a time")]
pub struct ServeArgs {
    /// The address to listen on. Anything but a loopback address makes the arcade reachable
    /// from other machines (it has no authentication).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Solver jobs at once (default: the machine's cores); the rest wait in line.
    #[arg(long)]
    workers: Option<usize>,
    /// Seconds a hint may take before the server stops it.
    #[arg(long, default_value_t = 10)]
    hint_seconds: u64,
    /// Seconds a watched game may run before the server stops it.
    #[arg(long, default_value_t = 1800)]
    run_seconds: u64,
    /// Open the page in the default browser (xdg-open).
    #[arg(long)]
    open: bool,
}

pub fn run(a: ServeArgs) -> CliResult {
    let mut config = arcade::Config { host: a.host, port: a.port, ..Default::default() };
    if let Some(w) = a.workers {
        if w == 0 {
            return Err(CliError::input("--workers must be at least 1"));
        }
        config.workers = w;
    }
    config.caps.hint_seconds = a.hint_seconds;
    config.caps.run_seconds = a.run_seconds;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failed(format!("cannot start the server runtime: {e}")))?;
    let open = a.open;
    runtime
        .block_on(arcade::serve_with(config, move |url| {
            if open {
                let _ = std::process::Command::new("xdg-open").arg(url).spawn();
            }
        }))
        .map_err(|e| CliError::input(format!("serve: {e}")))
}
