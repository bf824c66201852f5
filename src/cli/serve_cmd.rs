//! `serve`: flags → the service's configuration → `serve::run`, which
//! answers until SIGINT or SIGTERM.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use super::args::ServeArgs;
use crate::diag::Severity;
use crate::error::{Error, Exit};
use crate::serve::{self, Config};

/// `serve`: exit 0 after a signal, 1 for a plan with an error, 2 for a
/// refused configuration.
pub(super) fn serve(a: &ServeArgs, err: &mut dyn Write) -> Result<Exit, Error> {
    if !a.listen.ip().is_loopback() && !a.allow_remote {
        return Err(Error::Usage(format!(
            "--listen {}: not a loopback address; anyone who can reach it could read the served roots (add --allow-remote to mean it)",
            a.listen
        )));
    }
    for root in &a.roots {
        if !root.is_dir() {
            return Err(Error::Usage(format!(
                "--root {}: not a directory",
                root.display()
            )));
        }
    }
    if a.request_timeout == 0 || a.header_timeout == 0 || a.concurrency == Some(0) {
        return Err(Error::Usage(
            "--request-timeout, --header-timeout and --concurrency must be at least 1".into(),
        ));
    }
    let mut config = Config::new(a.listen);
    config.roots.clone_from(&a.roots);
    if let Some(path) = &a.plan {
        // As every composing command takes --plan (cli::expand_plan): its
        // environments first, its template the default root.
        let load = crate::load::LoadOptions::default();
        let plan = crate::workspace::open_plan(path, &load);
        let mut diagnostics = plan.diagnostics.clone();
        diagnostics.extend(crate::workspace::plan_requirements(&plan, &load));
        for d in &diagnostics {
            writeln!(err, "{d}")?;
        }
        if diagnostics.iter().any(|d| d.severity == Severity::Error) {
            writeln!(
                err,
                "heatcap serve: the plan `{}` has errors; not serving it",
                path.display()
            )?;
            return Ok(Exit::NoMatchOrFindings);
        }
        config.plan_environments = plan
            .environments
            .iter()
            .map(|e| PathBuf::from(&e.path))
            .collect();
        config.template = plan.template.map(|(t, _)| t);
        config.plan = Some(path.clone());
    }
    config.environments.extend(a.environments.iter().cloned());
    config.max_nested_depth = a.max_nested_depth;
    config.request_timeout = Duration::from_secs(a.request_timeout);
    config.header_timeout = Duration::from_secs(a.header_timeout);
    if let Some(n) = a.concurrency {
        config.concurrency = n;
    }
    let mut announce = Vec::new();
    serve::run(config, |addr| {
        // Written at once, so a script waiting for it reads a whole line.
        let _ = writeln!(
            std::io::stderr().lock(),
            "heatcap serve: listening on http://{addr} (Heat's API at http://{addr}/v1/<tenant>, heatcap's at http://{addr}/heatcap/v1/)"
        );
        announce.push(addr);
    })
    .map_err(|e| Error::Usage(format!("--listen {}: {e}", a.listen)))?;
    writeln!(err, "heatcap serve: stopped")?;
    Ok(Exit::Ok)
}
