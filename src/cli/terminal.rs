//! Terminal or pipe: the facts `main` gathers once (is each stream a
//! terminal, how wide, what the environment asks), and the decisions drawn
//! from them, pure functions tested here: the width tables fit, colour,
//! progress.

use std::ffi::OsString;
use std::time::Duration;

use super::args::{ColorWhen, DisplayArgs};
use crate::report::Look;

/// The process's streams and environment, as far as output cares. The
/// default is a pipe with an empty environment (what tests run with).
#[derive(Debug, Clone, Default)]
pub struct Terminal {
    /// Where results go.
    pub stdout: Stream,
    /// Where diagnostics and progress go.
    pub stderr: Stream,
    /// What the environment asks.
    pub env: Env,
    /// The process ends when the command returns (the binary sets it):
    /// the large things a command holds to the end (a workspace of every
    /// file walked) are left to the exit instead of being freed one
    /// allocation at a time.
    pub exits_after: bool,
}

/// One output stream.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stream {
    /// A terminal, not a pipe or a file.
    pub terminal: bool,
    /// The terminal's width in columns, when known.
    pub width: Option<u16>,
}

/// The environment variables heatcap's output obeys.
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// What the colour variables ask of `--color auto`.
    pub color: EnvColor,
    /// `TERM=dumb`: a terminal that takes no escapes.
    pub dumb: bool,
    /// `COLUMNS`, when a positive number: the width tables fit.
    pub columns: Option<u16>,
    /// `HEATCAP_PROGRESS_DELAY_MS`: how long a run goes before progress
    /// shows (default one second).
    pub progress_delay: Option<Duration>,
}

/// What the colour variables ask of `--color auto`, strongest first:
/// `NO_COLOR` (set, not empty) asks for none; `CLICOLOR_FORCE` or
/// `FORCE_COLOR` (set, not empty, not `0`) for colour even in a pipe;
/// `CLICOLOR=0` for none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EnvColor {
    /// Nothing asked: colour a terminal.
    #[default]
    Auto,
    /// No colour.
    Never,
    /// Colour, even in a pipe.
    Forced,
}

impl Env {
    /// The variables, read through `var`.
    pub fn from_vars(var: impl Fn(&str) -> Option<OsString>) -> Env {
        let set = |k: &str| var(k).filter(|v| !v.is_empty());
        let forced = |k: &str| set(k).is_some_and(|v| v != "0");
        let number = |k: &str| set(k).and_then(|v| v.to_str()?.trim().parse::<u64>().ok());
        let color = if set("NO_COLOR").is_some() {
            EnvColor::Never
        } else if forced("CLICOLOR_FORCE") || forced("FORCE_COLOR") {
            EnvColor::Forced
        } else if set("CLICOLOR").is_some_and(|v| v == "0") {
            EnvColor::Never
        } else {
            EnvColor::Auto
        };
        Env {
            color,
            dumb: set("TERM").is_some_and(|v| v == "dumb"),
            columns: number("COLUMNS")
                .filter(|n| *n > 0)
                .map(|n| u16::try_from(n).unwrap_or(u16::MAX)),
            progress_delay: number("HEATCAP_PROGRESS_DELAY_MS").map(Duration::from_millis),
        }
    }
}

impl Terminal {
    /// The real streams and environment of this process.
    pub fn detect() -> Terminal {
        use std::io::IsTerminal;
        let width = || terminal_size::terminal_size().map(|(w, _)| w.0);
        let stdout = std::io::stdout().is_terminal();
        let stderr = std::io::stderr().is_terminal();
        Terminal {
            stdout: Stream {
                terminal: stdout,
                width: if stdout { width() } else { None },
            },
            stderr: Stream {
                terminal: stderr,
                width: None,
            },
            env: Env::from_vars(|k| std::env::var_os(k)),
            exits_after: false,
        }
    }
}

/// Whether to colour a stream: `always` and `never` as said; `auto`
/// colours a terminal (not `TERM=dumb`), unless `NO_COLOR` is set or
/// `CLICOLOR=0`; `CLICOLOR_FORCE`/`FORCE_COLOR` colour a pipe too, and
/// `NO_COLOR` wins over them.
pub(crate) fn color(when: ColorWhen, stream: Stream, env: &Env) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => match env.color {
            EnvColor::Never => false,
            EnvColor::Forced => true,
            EnvColor::Auto => stream.terminal && !env.dumb,
        },
    }
}

/// The width tables fit: `--max-width N` (0: none), else `COLUMNS`, else
/// the terminal's width when stdout is one; a pipe gets whole lines.
pub(crate) fn width(max_width: Option<u16>, stream: Stream, env: &Env) -> Option<u16> {
    match max_width {
        Some(0) => None,
        Some(n) => Some(n),
        None => env
            .columns
            .or(if stream.terminal { stream.width } else { None }),
    }
}

/// How long a run goes before progress shows.
pub(crate) const PROGRESS_DELAY: Duration = Duration::from_secs(1);

/// Whether progress shows on stderr after a run has gone `elapsed`: only
/// on a terminal (never in a pipe or a file, never `TERM=dumb`), never
/// with `-q`, and only once the run has taken `delay`.
pub(crate) fn shows_progress(
    stderr: Stream,
    env: &Env,
    quiet: bool,
    elapsed: Duration,
    delay: Duration,
) -> bool {
    stderr.terminal && !env.dumb && !quiet && elapsed >= delay
}

/// The decisions for one run.
#[derive(Debug, Clone)]
pub(crate) struct Ui {
    /// stdout: results (and `validate`'s findings).
    pub(crate) out: Look,
    /// stderr: diagnostics and summaries.
    pub(crate) err: Look,
    stderr: Stream,
    env: Env,
    exits_after: bool,
}

impl Ui {
    pub(crate) fn new(args: &DisplayArgs, t: &Terminal) -> Ui {
        Ui {
            out: Look {
                width: width(args.max_width, t.stdout, &t.env),
                color: color(args.color, t.stdout, &t.env),
            },
            err: Look {
                width: None,
                color: color(args.color, t.stderr, &t.env),
            },
            stderr: t.stderr,
            env: t.env.clone(),
            exits_after: t.exits_after,
        }
    }

    /// Done with `value`, which the command held to its end: when the
    /// process exits after the command ([`Terminal::exits_after`]) it is
    /// not freed (the exit returns its memory at once; freeing a workspace
    /// of 30,000 files took 1.5% of `index`), otherwise it is dropped.
    pub(crate) fn release<T>(&self, value: T) {
        if self.exits_after {
            std::mem::forget(value);
        }
    }

    /// A progress line for this run's long part, `what` it is doing; it
    /// shows once [`shows_progress`] says so and is gone when dropped.
    pub(crate) fn progress(&self, quiet: bool, what: &'static str) -> super::progress::Progress {
        let delay = self.env.progress_delay.unwrap_or(PROGRESS_DELAY);
        let (stderr, env) = (self.stderr, self.env.clone());
        super::progress::Progress::start(what, delay, move |elapsed| {
            shows_progress(stderr, &env, quiet, elapsed, delay)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TTY: Stream = Stream {
        terminal: true,
        width: Some(100),
    };
    const PIPE: Stream = Stream {
        terminal: false,
        width: None,
    };

    fn env(vars: &[(&str, &str)]) -> Env {
        Env::from_vars(|k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn auto_colours_a_terminal_only() {
        let none = env(&[]);
        assert!(color(ColorWhen::Auto, TTY, &none));
        assert!(!color(ColorWhen::Auto, PIPE, &none));
        assert!(color(ColorWhen::Always, PIPE, &none));
        assert!(!color(ColorWhen::Never, TTY, &none));
        assert!(!color(ColorWhen::Auto, TTY, &env(&[("TERM", "dumb")])));
        assert!(!color(ColorWhen::Auto, TTY, &env(&[("CLICOLOR", "0")])));
    }

    #[test]
    fn no_color_wins_over_auto_and_forcing_but_not_always() {
        let no = env(&[("NO_COLOR", "1")]);
        assert!(!color(ColorWhen::Auto, TTY, &no));
        assert!(color(ColorWhen::Always, TTY, &no));
        // An empty NO_COLOR is no request.
        assert!(color(ColorWhen::Auto, TTY, &env(&[("NO_COLOR", "")])));
        let forced = env(&[("CLICOLOR_FORCE", "1")]);
        assert!(color(ColorWhen::Auto, PIPE, &forced));
        assert!(color(ColorWhen::Auto, PIPE, &env(&[("FORCE_COLOR", "3")])));
        assert!(!color(ColorWhen::Auto, PIPE, &env(&[("FORCE_COLOR", "0")])));
        let both = env(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
        assert!(!color(ColorWhen::Auto, PIPE, &both));
    }

    #[test]
    fn tables_fit_the_flag_then_columns_then_the_terminal() {
        let none = env(&[]);
        assert_eq!(width(None, TTY, &none), Some(100));
        assert_eq!(width(None, PIPE, &none), None);
        let cols = env(&[("COLUMNS", "80")]);
        assert_eq!(width(None, TTY, &cols), Some(80));
        assert_eq!(width(None, PIPE, &cols), Some(80));
        assert_eq!(width(Some(120), TTY, &cols), Some(120));
        assert_eq!(width(Some(0), TTY, &cols), None);
        // COLUMNS that is not a positive number is ignored.
        for bad in ["0", "wide", "-3", ""] {
            assert_eq!(width(None, PIPE, &env(&[("COLUMNS", bad)])), None, "{bad}");
        }
        assert_eq!(
            width(None, PIPE, &env(&[("COLUMNS", "99999999")])),
            Some(u16::MAX)
        );
    }

    #[test]
    fn progress_needs_a_terminal_a_second_and_no_quiet() {
        let none = env(&[]);
        let second = Duration::from_secs(1);
        let (short, long) = (Duration::from_millis(999), Duration::from_millis(1500));
        assert!(shows_progress(TTY, &none, false, long, second));
        assert!(shows_progress(TTY, &none, false, second, second));
        assert!(!shows_progress(TTY, &none, false, short, second));
        assert!(!shows_progress(PIPE, &none, false, long, second));
        assert!(!shows_progress(TTY, &none, true, long, second));
        assert!(!shows_progress(
            TTY,
            &env(&[("TERM", "dumb")]),
            false,
            long,
            second
        ));
    }

    #[test]
    fn the_progress_delay_can_be_set() {
        assert_eq!(
            env(&[("HEATCAP_PROGRESS_DELAY_MS", "0")]).progress_delay,
            Some(Duration::ZERO)
        );
        assert_eq!(env(&[]).progress_delay, None);
    }
}
