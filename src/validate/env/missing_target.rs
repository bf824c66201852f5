//! E6012 `MissingRegistryTarget`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use std::path::Path;

use crate::diag::{Code, Diagnostic};
use crate::model::registry::RegistryEntry;
use crate::validate::{EnvContext, EnvRule, RuleMeta};

pub(crate) struct MissingRegistryTarget;

/// This rule's code (`validate -e` reports the same problem as E7001 only
/// where this rule has not).
pub(crate) const CODE: Code = Code("E6012");

static META: RuleMeta = RuleMeta {
    code: CODE,
    name: "MissingRegistryTarget",
    summary: "a file the registry names does not exist",
    what: "Every file a `resource_registry` entry names exists, relative to the environment file as python-heatclient resolves it: a value without `::` (whatever its extension: the client fetches `x.yml` too), top level or per resource, or a candidate of a list. Remote (`http://`, `https://`) targets are not fetched, and a registry with a `base_url` is not checked.",
    why: "Python-heatclient reads every template the registry names before it calls Heat, so one missing file fails the whole deployment, even when no resource uses that type (heat-semantics §2.12).",
    example: "`OS::TripleO::Compute: puppet/compute.yaml` with no such file.",
    source: "heat-semantics §2.12 (python-heatclient fetches every registry template)",
};

impl EnvRule for MissingRegistryTarget {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        // A `base_url` moves the targets (of the registry, or of one
        // resource's entries) somewhere heatcap does not look.
        if cx.env.top().any(|e| e.key == "base_url") {
            return;
        }
        let moved: Vec<&str> = cx
            .env
            .per_resource()
            .filter(|e| e.key == "base_url")
            .filter_map(RegistryEntry::resource)
            .collect();
        // python-heatclient resolves against the real directory of the file
        // (a symbolic link's target's).
        // Targets are asked of the run's `Disk`, each distinct file once: a
        // real directory's leading `..` folded, the many environments of a
        // tree that name one file from different directories ask once.
        let shown = Path::new(&cx.file.path);
        let real_dir = cx
            .disk
            .canonicalize(shown)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        // Whether the directory is plain text is asked once, not per target.
        let plain = real_dir.as_deref().is_some_and(crate::vfs::plain_dir);
        let read_at = |target: &str| match &real_dir {
            Some(dir) => crate::vfs::join_real_known(dir, plain, Path::new(target)),
            None => shown.parent().unwrap_or(Path::new("")).join(target),
        };
        for e in &cx.env.entries {
            if e.resource().is_some_and(|r| moved.contains(&r)) {
                continue;
            }
            for (target, span) in e.client_files() {
                let remapped = cx.remap.apply(target);
                let read = match &remapped {
                    std::borrow::Cow::Owned(r) => crate::walk::path_of(r),
                    std::borrow::Cow::Borrowed(_) => read_at(target),
                };
                if !cx.disk.is_file(&read) {
                    let relative = match &remapped {
                        std::borrow::Cow::Owned(r) => {
                            format!("read at `{r}` under --templates-root").into()
                        }
                        std::borrow::Cow::Borrowed(_) => {
                            std::borrow::Cow::Borrowed("relative to this environment file")
                        }
                    };
                    out.push(
                        Diagnostic::new(
                            META.code,
                            cx.file.path.clone(),
                            format!("`{target}` does not exist or is not a file ({relative})"),
                        )
                        .at(span),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::load::{load_one, LoadOptions};
    use crate::model::FileRecord;
    use crate::validate::{check_file, Selection};
    use crate::walk::Source;

    #[test]
    fn targets_resolve_against_the_real_directory_of_a_linked_file() {
        let dir = tempfile::tempdir().unwrap();
        let (real, envs) = (dir.path().join("real"), dir.path().join("envs"));
        std::fs::create_dir_all(&real).unwrap();
        std::fs::create_dir_all(&envs).unwrap();
        std::fs::write(real.join("x.yaml"), "heat_template_version: 2016-10-14\n").unwrap();
        std::fs::write(
            real.join("prod.yaml"),
            "resource_registry:\n  OS::X: x.yaml\n  OS::Y: y.yaml\n",
        )
        .unwrap();
        std::os::unix::fs::symlink(real.join("prod.yaml"), envs.join("prod.yaml")).unwrap();
        let path = envs.join("prod.yaml");
        let source = Source {
            display: path.display().to_string(),
            path,
            explicit: true,
            jinja: false,
            entry: crate::walk::Entry::Unseen,
        };
        let record = FileRecord::from_loaded(load_one(&source, &LoadOptions::default()), true);
        let selection = Selection {
            select: vec!["E6012".into()],
            ignore: Vec::new(),
        };
        let found = check_file(
            &record,
            &selection,
            &crate::walk::Remap::default(),
            &crate::validate::MappedTypes::default(),
            &crate::vfs::Disk::default(),
        );
        let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            ["`y.yaml` does not exist or is not a file (relative to this environment file)"]
        );
    }
}
