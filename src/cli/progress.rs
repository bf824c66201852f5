//! A progress line on stderr while a long run works: a spinner, what the
//! run is doing and the time it has taken (indicatif). It appears only once
//! the run has taken its delay, and only where [`super::terminal`] allows
//! (a terminal, no `-q`); it is cleared before anything is printed, since
//! commands print only once their question is answered.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The progress of one run; dropping it clears the line.
#[derive(Debug)]
pub(crate) struct Progress {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts waiting: after `delay` the line shows if `shows(elapsed)`
    /// agrees. When it could never show (a pipe, `-q`), no thread starts.
    pub(crate) fn start(
        what: &'static str,
        delay: Duration,
        shows: impl Fn(Duration) -> bool + Send + 'static,
    ) -> Progress {
        if !shows(Duration::MAX) {
            return Progress {
                stop: None,
                thread: None,
            };
        }
        let (stop, stopped) = mpsc::channel::<()>();
        let started = Instant::now();
        let thread = std::thread::spawn(move || {
            if stopped.recv_timeout(delay) != Err(RecvTimeoutError::Timeout)
                || !shows(started.elapsed())
            {
                return;
            }
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{spinner} heatcap: {msg} {elapsed}") {
                bar.set_style(style);
            }
            bar.set_message(what);
            bar.enable_steady_tick(Duration::from_millis(100));
            // Until the run is done (the sender is dropped).
            let _ = stopped.recv();
            bar.finish_and_clear();
        });
        Progress {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn no_thread_when_it_could_never_show() {
        let p = Progress::start("testing", Duration::ZERO, |_| false);
        assert!(p.thread.is_none());
    }

    #[test]
    fn a_short_run_asks_nothing_and_a_long_one_asks_once() {
        let asked = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&asked);
        // `shows` answers true only for the up-front check, so the line is
        // never drawn (the test's stderr may be a terminal).
        let p = Progress::start("testing", Duration::from_mins(1), move |e| {
            counter.fetch_add(1, Ordering::SeqCst);
            e == Duration::MAX
        });
        drop(p);
        assert_eq!(asked.load(Ordering::SeqCst), 1, "dropped before the delay");
        let counter = Arc::clone(&asked);
        let p = Progress::start("testing", Duration::ZERO, move |e| {
            counter.fetch_add(1, Ordering::SeqCst);
            e == Duration::MAX
        });
        std::thread::sleep(Duration::from_millis(50));
        drop(p);
        assert_eq!(
            asked.load(Ordering::SeqCst),
            3,
            "asked again after the delay"
        );
    }
}
