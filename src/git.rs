//! Trees as they are at a git revision (`--rev REV`, diff's revision
//! sides), read from the repository's objects without a checkout.
//!
//! [`tree_at`] finds the repository a path is in (from the path up, as git
//! does), resolves the revision as `git rev-parse` does, and reads every
//! file of that commit's tree into a [`FileOverlay`] mounted at the
//! repository's working directory *instead of* the disk there
//! (`FileOverlay::mount_tree`): every stage that reads a path through the
//! overlay (the walk, the loader, the catalog, TripleO rendering) then sees
//! the revision, and paths outside the repository are read from the disk as
//! they are. Nothing is written; the working tree, the index and `HEAD` are
//! not touched.
//!
//! What cannot be read is a [`RevisionError`] naming the revision and what
//! to do: not in a git repository (E0031), a revision git does not know
//! (E0032), objects missing from a shallow or partial clone (E0033).

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::diag::{codes, Code};
use crate::vfs::{FileOverlay, TreeFile};

pub use crate::error::RevisionError;

fn error(code: Code, message: String) -> RevisionError {
    RevisionError {
        code: code.0.to_owned(),
        message,
    }
}

/// A repository opened at a path: the repository, and its working
/// directory's real path.
pub(crate) struct Repo {
    repo: gix::Repository,
    /// The real path of the working directory the revision's files are
    /// read at.
    workdir: PathBuf,
}

/// The nearest existing directory at or above `path` (made absolute from
/// the working directory): a path may name a directory the working tree no
/// longer has.
fn existing_dir(path: &Path) -> PathBuf {
    let mut at = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    loop {
        if at.is_dir() {
            return at;
        }
        if !at.pop() {
            return PathBuf::from(".");
        }
    }
}

impl Repo {
    /// The repository `path` is in (the path itself, or the nearest
    /// existing directory above it).
    pub(crate) fn discover(path: &Path, rev: &str) -> Result<Repo, RevisionError> {
        let dir = existing_dir(path);
        let not_in = |why: String| {
            error(
                codes::NOT_A_REPOSITORY,
                format!(
                    "cannot read revision `{rev}`: `{}` is not in a git repository ({why}); \
                     --rev reads the repository the path is in",
                    crate::walk::display(path)
                ),
            )
        };
        let repo = gix::discover(&dir).map_err(|e| not_in(e.to_string()))?;
        let Some(workdir) = repo.workdir() else {
            return Err(not_in(
                "it is a bare repository: there is no working directory to read paths in".into(),
            ));
        };
        let workdir = std::fs::canonicalize(workdir).map_err(|e| not_in(e.to_string()))?;
        Ok(Repo { repo, workdir })
    }

    /// What to say about history a shallow clone lacks.
    fn shallow_hint(&self) -> String {
        if self.repo.is_shallow().unwrap_or(false) {
            format!(
                "; the repository is a shallow clone: fetch more history (`git -C {} fetch --deepen=N`, or `--unshallow`)",
                self.workdir.display()
            )
        } else {
            String::new()
        }
    }

    /// What to fetch for a revision the repository does not know.
    fn fetch_hint(&self, rev: &str) -> String {
        match self.shallow_hint() {
            hint if hint.is_empty() => format!(
                "; fetch it (`git -C {} fetch origin {rev}`, or `git fetch --tags` for a tag)",
                self.workdir.display()
            ),
            hint => hint,
        }
    }

    /// The commit `rev` names (`HEAD~1`, a tag, a branch, a hash).
    pub(crate) fn commit(&self, rev: &str) -> Result<gix::ObjectId, RevisionError> {
        let id = self
            .repo
            .rev_parse_single(rev)
            .map_err(|e| {
                error(
                    codes::UNKNOWN_REVISION,
                    format!(
                        "unknown revision `{rev}` in the repository at `{}`: {e}{}",
                        self.workdir.display(),
                        self.fetch_hint(rev),
                    ),
                )
            })?
            .detach();
        let object = self
            .repo
            .find_object(id)
            .map_err(|e| self.missing(rev, &e))?;
        let commit = object.peel_to_commit().map_err(|e| {
            error(
                codes::UNKNOWN_REVISION,
                format!("revision `{rev}` names no commit: {e}"),
            )
        })?;
        Ok(commit.id)
    }

    /// The best common ancestor of two commits (`A...B`'s old side).
    pub(crate) fn merge_base(
        &self,
        spec: &str,
        one: gix::ObjectId,
        two: gix::ObjectId,
    ) -> Result<gix::ObjectId, RevisionError> {
        match self.repo.merge_base(one, two) {
            Ok(Some(id)) => Ok(id.detach()),
            Ok(None) => Err(error(
                codes::UNKNOWN_REVISION,
                format!("`{spec}`: the two revisions have no common ancestor"),
            )),
            Err(e) => Err(self.missing(spec, &e)),
        }
    }

    fn missing(&self, rev: &str, e: &dyn std::fmt::Display) -> RevisionError {
        error(
            codes::OBJECTS_MISSING,
            format!(
                "revision `{rev}` cannot be read from the repository at `{}`: {e}{}; \
                 objects missing from a partial clone are fetched when git reads them \
                 (`git -C {} archive {rev} >/dev/null`), or clone without `--filter`",
                self.workdir.display(),
                self.shallow_hint(),
                self.workdir.display()
            ),
        )
    }

    /// Every file of `commit`'s tree (shown as `rev`), mounted at the
    /// working directory instead of the disk there. Symbolic links to
    /// files of the tree read as their target; other links and
    /// submodules are left out, as a checkout would not give heatcap a
    /// file there either. A blob larger than `max_chars` characters can
    /// take is not read (only its header is): it is listed, and reading
    /// it says it is too large (E0003), as a file on the disk would.
    pub(crate) fn overlay(
        &self,
        rev: &str,
        commit: gix::ObjectId,
        max_chars: usize,
    ) -> Result<FileOverlay, RevisionError> {
        let tree = self
            .repo
            .find_object(commit)
            .and_then(gix::Object::peel_to_tree)
            .map_err(|e| self.missing(rev, &e))?;
        let entries = tree
            .traverse()
            .breadthfirst
            .files()
            .map_err(|e| self.missing(rev, &e))?;
        let mut blobs: Vec<(String, gix::ObjectId)> = Vec::new();
        let mut links: Vec<(String, gix::ObjectId)> = Vec::new();
        for e in entries {
            let Ok(path) = std::str::from_utf8(&e.filepath) else {
                continue;
            };
            if e.mode.is_blob() {
                blobs.push((path.to_owned(), e.oid));
            } else if e.mode.is_link() {
                links.push((path.to_owned(), e.oid));
            }
        }
        // A character is at most 4 bytes: a larger blob cannot be read, so
        // only its header is.
        let ceiling = (max_chars as u64).saturating_mul(4);
        let sync = self.repo.clone().into_sync();
        let read = |repo: &gix::Repository, id: gix::ObjectId| {
            repo.find_blob(id).map(|mut b| b.take_data())
        };
        let mut files: Vec<(String, TreeFile)> = blobs
            .par_iter()
            .map_init(
                || sync.to_thread_local(),
                |repo, (path, id)| {
                    let fail = |e: &dyn std::fmt::Display| format!("`{path}` ({id}): {e}");
                    let size = repo.find_header(*id).map_err(|e| fail(&e))?.size();
                    let file = if size > ceiling {
                        TreeFile::Oversize(size, max_chars)
                    } else {
                        TreeFile::Read(read(repo, *id).map_err(|e| fail(&e))?)
                    };
                    Ok((path.clone(), file))
                },
            )
            .collect::<Result<_, String>>()
            .map_err(|e| self.missing(rev, &e))?;
        let listed: std::collections::HashSet<&str> =
            files.iter().map(|(p, _)| p.as_str()).collect();
        let mut linked = Vec::new();
        for (path, id) in &links {
            let target = read(&self.repo, *id).map_err(|e| self.missing(rev, &e))?;
            let Ok(target) = String::from_utf8(target) else {
                continue;
            };
            let dir = Path::new(path).parent().unwrap_or(Path::new(""));
            let resolved = crate::walk::normalize(&dir.join(&target));
            if listed.contains(resolved.as_str()) {
                linked.push((path.clone(), TreeFile::Link(resolved)));
            }
        }
        drop(listed);
        files.extend(linked);
        let mut overlay = FileOverlay::new();
        overlay.mount_tree(&self.workdir, rev, files);
        Ok(overlay)
    }
}

/// The tree at `rev` in the repository `path` is in, ready to be read
/// through (`LoadOptions::overlay`). A file larger than `max_chars`
/// characters can take is not read (only its header is): it is listed,
/// and reading it says it is too large (E0003), as on the disk.
///
/// # Errors
/// Not in a git repository (E0031), an unknown revision (E0032), objects
/// missing (E0033).
pub fn tree_at(path: &Path, rev: &str, max_chars: usize) -> Result<FileOverlay, RevisionError> {
    let repo = Repo::discover(path, rev)?;
    let commit = repo.commit(rev)?;
    repo.overlay(rev, commit, max_chars)
}

/// A side of a range: its label (the revision as given, or
/// `merge-base(A, B)`) and its files.
pub type RevisionSide = (String, FileOverlay);

/// The two sides a `diff` range names, as git's diff reads them: `A..B`
/// (from A to B), `A...B` (from their merge base to B), an empty side
/// being `HEAD`; a single revision is the old side and `None` the working
/// tree. Each side is its label and its files.
///
/// # Errors
/// As [`tree_at`].
pub fn range_at(
    path: &Path,
    spec: &str,
    max_chars: usize,
) -> Result<(RevisionSide, Option<RevisionSide>), RevisionError> {
    let repo = Repo::discover(path, spec)?;
    let side = |s: &str| if s.is_empty() { "HEAD" } else { s }.to_owned();
    if let Some((a, b)) = spec.split_once("...") {
        let (a, b) = (side(a), side(b));
        let (one, two) = (repo.commit(&a)?, repo.commit(&b)?);
        let base = repo.merge_base(spec, one, two)?;
        let label = format!("merge-base({a}, {b})");
        return Ok((
            (label.clone(), repo.overlay(&label, base, max_chars)?),
            Some((b.clone(), repo.overlay(&b, two, max_chars)?)),
        ));
    }
    if let Some((a, b)) = spec.split_once("..") {
        let (a, b) = (side(a), side(b));
        let (one, two) = (repo.commit(&a)?, repo.commit(&b)?);
        return Ok((
            (a.clone(), repo.overlay(&a, one, max_chars)?),
            Some((b.clone(), repo.overlay(&b, two, max_chars)?)),
        ));
    }
    let one = repo.commit(spec)?;
    Ok(((spec.to_owned(), repo.overlay(spec, one, max_chars)?), None))
}
