//! The one finding type every stage reports: [`Diagnostic`].
//!
//! Checks fill in a `key_path` (where in the document); the loader's span
//! table turns it into a [`Span`] in one place (the tree's `span_of`).
//! Every code has one entry in the catalogue ([`CodeInfo`]): [`codes`]
//! holds those of the codes no rule owns; each rule owns its own.
//! Renderers format diagnostics; nothing else prints them.

use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;

/// A 1-based line and column (columns count characters, not bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema, Default,
)]
#[schemars(deny_unknown_fields)]
pub struct Pos {
    /// 1-based line.
    #[schemars(range(min = 1))]
    pub line: u32,
    /// 1-based column, in characters.
    #[schemars(range(min = 1))]
    pub column: u32,
}

/// A region of a file, start inclusive, end exclusive.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema, Default,
)]
#[schemars(deny_unknown_fields)]
pub struct Span {
    /// Where the region starts.
    pub start: Pos,
    /// Where it ends (exclusive).
    pub end: Pos,
}

impl Span {
    /// A span that covers one point.
    pub fn point(line: u32, column: u32) -> Self {
        let p = Pos { line, column };
        Span { start: p, end: p }
    }
}

/// How serious a finding is. The letter of a code repeats it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Severity {
    /// A note (`I` codes).
    Info,
    /// A warning (`W` codes).
    Warning,
    /// An error (`E` codes).
    Error,
}

impl Severity {
    /// `info`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A stable diagnostic code: a severity letter, then four digits whose
/// thousands digit names the area (0 load/parse, 5 capabilities, 6
/// environments, ...). Codes are never reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Code(pub &'static str);

impl Code {
    /// The severity its letter stands for.
    pub fn severity(self) -> Severity {
        match self.0.as_bytes().first() {
            Some(b'E') => Severity::Error,
            Some(b'W') => Severity::Warning,
            _ => Severity::Info,
        }
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

/// The text `Serialize` writes: a severity letter and four digits.
impl JsonSchema for Code {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Code".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A diagnostic code: its letter is the severity (E error, W warning, I note), its first digit the area; `heatcap rules CODE` explains it.",
            "type": "string",
            "pattern": "^[EWI][0-9]{4}$"
        })
    }
}

/// What one code means: the catalogue entry every code has, whichever
/// stage emits it. `docs/rules.md`, SARIF's `rules` and `heatcap rules`
/// are rendered from these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct CodeInfo {
    /// The code this entry describes.
    pub code: Code,
    /// Names the pattern the code flags (`allow <name>` reads well).
    pub name: &'static str,
    /// One line.
    pub summary: &'static str,
    /// What is checked, in a few sentences.
    pub what: &'static str,
    /// Why it matters: what Heat (or ONAP) does with such input.
    pub why: &'static str,
    /// A short example of input that gets the code.
    pub example: &'static str,
    /// Where the behaviour is defined (heat-semantics section, HOT spec,
    /// ONAP requirement).
    pub source: &'static str,
}

impl CodeInfo {
    /// The severity the code's letter stands for.
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// The ONAP requirement IDs (`R-92635`) the source names.
    pub fn requirements(&self) -> Vec<&'static str> {
        let s: &'static str = self.source;
        s.match_indices("R-")
            .filter_map(|(i, _)| {
                let digits = s[i + 2..].bytes().take_while(u8::is_ascii_digit).count();
                let starts_word = i == 0 || !s.as_bytes()[i - 1].is_ascii_alphanumeric();
                (digits > 0 && starts_word).then(|| &s[i..i + 2 + digits])
            })
            .collect()
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

pub(crate) mod codes;

/// A secondary location attached to a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Related {
    /// The file as the user gave it.
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Where in that file.
    pub span: Option<Span>,
    /// What is there.
    pub message: String,
}

/// Every diagnostic of `groups`, in order, in one vector of their exact
/// number, moved there on the workers; each leaves an empty one (which
/// holds no allocation) in its group. One thread moving `validate`'s
/// 470,000 findings into a fresh vector spent that time faulting the
/// vector's pages in while the other thread waited (docs/performance.md,
/// issue 30's eighth pass).
pub(crate) fn gather<'a>(groups: impl Iterator<Item = &'a mut Vec<Diagnostic>>) -> Vec<Diagnostic> {
    use rayon::prelude::*;
    let slots: Vec<&mut Diagnostic> = groups.flat_map(|g| g.iter_mut()).collect();
    slots
        .into_par_iter()
        .map(|d| std::mem::replace(d, hole()))
        .collect()
}

/// What [`gather`] leaves in a finding's place: never reported, and empty
/// (its code is any code: a code is a static text).
fn hole() -> Diagnostic {
    Diagnostic::new(codes::READ_ERROR, String::new(), String::new())
}

/// The diagnostics with repeats removed (same code, file, position and
/// message), first occurrences kept in order: one finding, one line, however
/// many paths of the composition reach it.
pub(crate) fn dedup(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    dedup_with(diagnostics, &foldhash::fast::RandomState::default())
}

/// [`dedup`], keys hashed with `state`.
fn dedup_with(
    mut diagnostics: Vec<Diagnostic>,
    state: &(impl std::hash::BuildHasher + Sync),
) -> Vec<Diagnostic> {
    let mut keep = firsts_with(&diagnostics, state).into_iter();
    diagnostics.retain(|_| keep.next().unwrap_or(true));
    diagnostics
}

/// For each diagnostic, whether it is the first of its kind in
/// `diagnostics` (see [`dedup`]), without moving them.
pub(crate) fn firsts(diagnostics: &[Diagnostic]) -> Vec<bool> {
    firsts_with(diagnostics, &foldhash::fast::RandomState::default())
}

/// [`firsts`], keys hashed with `state`.
fn firsts_with(
    diagnostics: &[Diagnostic],
    state: &(impl std::hash::BuildHasher + Sync),
) -> Vec<bool> {
    use rayon::prelude::*;
    use std::collections::hash_map::Entry;
    // Each finding's key hashed in parallel (a file and a message each:
    // 100,000 findings took a tenth of `validate`'s one-thread part), then
    // marked in order, keys compared only where the hashes meet.
    let hashes: Vec<u64> = diagnostics
        .par_iter()
        .map(|d| state.hash_one(DedupKey(d)))
        .collect();
    let same = |i: usize, j: usize| DedupKey(&diagnostics[i]) == DedupKey(&diagnostics[j]);
    // The first finding of each hash; the others that share it (rare).
    let mut first: foldhash::HashMap<u64, usize> = foldhash::HashMap::with_capacity_and_hasher(
        diagnostics.len(),
        foldhash::fast::RandomState::default(),
    );
    let mut more: foldhash::HashMap<u64, Vec<usize>> = foldhash::HashMap::default();
    hashes
        .iter()
        .enumerate()
        .map(|(i, h)| match first.entry(*h) {
            Entry::Vacant(v) => {
                v.insert(i);
                true
            }
            Entry::Occupied(o) if same(*o.get(), i) => false,
            Entry::Occupied(_) => {
                let others = more.entry(*h).or_default();
                let repeat = others.iter().any(|&j| same(j, i));
                if !repeat {
                    others.push(i);
                }
                !repeat
            }
        })
        .collect()
}

/// What makes two findings the same for [`dedup`]: code, file, position
/// and message.
struct DedupKey<'a>(&'a Diagnostic);

impl PartialEq for DedupKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.0, other.0);
        a.code == b.code && a.span == b.span && a.file == b.file && a.message == b.message
    }
}

impl Eq for DedupKey<'_> {}

impl std::hash::Hash for DedupKey<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.code.hash(state);
        self.0.file.hash(state);
        self.0.span.hash(state);
        self.0.message.hash(state);
    }
}

/// One finding: what, where, how serious.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Diagnostic {
    /// The stable code (`E7004`).
    pub code: Code,
    /// How serious it is (the code's letter).
    pub severity: Severity,
    /// The file as the user gave it.
    pub file: String,
    /// Keys (and list indices) from the document root to the node.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(min = 1))]
    pub key_path: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Where in the file, when known.
    pub span: Option<Span>,
    /// What is wrong, in one sentence.
    pub message: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(min = 1))]
    /// Other places that explain it (the glob that shadows an entry, ...).
    pub related: Vec<Related>,
    /// The ONAP requirement IDs (`R-92635`) a finding counts against, under
    /// `validate --profile onap`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(inner(pattern(r"^R-[0-9]+$")), length(min = 1))]
    pub requirements: Vec<&'static str>,
}

impl Diagnostic {
    /// A diagnostic whose severity is the code's.
    pub fn new(code: Code, file: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            file: file.into(),
            key_path: Vec::new(),
            span: None,
            message: message.into(),
            related: Vec::new(),
            requirements: Vec::new(),
        }
    }

    #[must_use]
    /// The diagnostic at `span`.
    pub fn at(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    #[must_use]
    /// The diagnostic with the key path of its node.
    pub fn with_key_path(mut self, key_path: Vec<String>) -> Self {
        self.key_path = key_path;
        self
    }

    #[must_use]
    /// The diagnostic with one more related location.
    pub fn with_related(mut self, related: Related) -> Self {
        self.related.push(related);
        self
    }
}

impl fmt::Display for Diagnostic {
    /// `path:line:col: CODE severity: message`, the form editors and grep read.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.span {
            Some(s) => write!(f, "{}:{}:{}: ", self.file, s.start.line, s.start.column)?,
            None => write!(f, "{}: ", self.file)?,
        }
        write!(f, "{} {}: {}", self.code, self.severity, self.message)?;
        if !self.requirements.is_empty() {
            write!(f, " (ONAP {})", self.requirements.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_follows_code_letter() {
        assert_eq!(codes::DUPLICATE_KEY.severity(), Severity::Warning);
        assert_eq!(codes::YAML_SYNTAX.severity(), Severity::Error);
        assert_eq!(codes::JINJA_SKIPPED.severity(), Severity::Info);
    }

    #[test]
    fn display_is_editor_friendly() {
        let d = Diagnostic::new(codes::DUPLICATE_KEY, "a/b.yaml", "duplicate key `x`")
            .at(Span::point(3, 5));
        assert_eq!(
            d.to_string(),
            "a/b.yaml:3:5: W0010 warning: duplicate key `x`"
        );
        let d = Diagnostic::new(codes::READ_ERROR, "c.yaml", "cannot read");
        assert_eq!(d.to_string(), "c.yaml: E0001 error: cannot read");
    }

    /// Gathered findings are every group's, in the groups' order, across
    /// empty groups and across the pieces rayon splits a long run into; each
    /// group is left with as many empty findings.
    #[test]
    fn gathered_findings_keep_every_groups_order() {
        let finding = |g: usize, i: usize| {
            Diagnostic::new(codes::DUPLICATE_KEY, format!("f{g}.yaml"), format!("#{i}"))
                .at(Span::point(u32::try_from(i + 1).unwrap(), 1))
        };
        let sizes = [3, 0, 5000, 1, 0, 700];
        let mut groups: Vec<Vec<Diagnostic>> = sizes
            .iter()
            .enumerate()
            .map(|(g, &n)| (0..n).map(|i| finding(g, i)).collect())
            .collect();
        let expected: Vec<Diagnostic> = groups.iter().flatten().cloned().collect();
        let gathered = gather(groups.iter_mut());
        assert_eq!(gathered, expected);
        assert_eq!(gathered.capacity(), expected.len());
        for (group, &n) in groups.iter().zip(&sizes) {
            assert_eq!(group.len(), n);
            assert!(group
                .iter()
                .all(|d| d.file.is_empty() && d.message.is_empty()));
        }
        assert!(gather(std::iter::empty()).is_empty());
    }
}

#[cfg(test)]
mod dedup_tests {
    use super::*;

    #[test]
    fn repeats_are_dropped_and_order_kept() {
        let d = |code, line, msg: &str| {
            Diagnostic::new(Code(code), "t.yaml", msg).at(Span::point(line, 1))
        };
        let all = vec![
            d("E7006", 12, "a"),
            d("W0010", 3, "b"),
            d("E7006", 12, "a"),
            d("E7006", 13, "a"),
            d("W0010", 3, "b"),
            d("W0010", 3, "c"),
            d("E7007", 12, "a"),
            Diagnostic::new(Code("E7006"), "u.yaml", "a").at(Span::point(12, 1)),
            Diagnostic::new(Code("E7006"), "t.yaml", "a"),
        ];
        // The same with every key hashed alike: keys are then compared
        // among all the findings that share the hash.
        let alike = std::hash::BuildHasherDefault::<Constant>::default();
        assert_eq!(dedup_with(all.clone(), &alike), dedup(all.clone()));
        let kept: Vec<(&str, String, u32, String)> = dedup(all)
            .into_iter()
            .map(|d| {
                (
                    d.code.0,
                    d.file,
                    d.span.map_or(0, |s| s.start.line),
                    d.message,
                )
            })
            .collect();
        let k = |code, file: &str, line, msg: &str| (code, file.to_owned(), line, msg.to_owned());
        // A finding differing in any of code, file, place or message is kept.
        assert_eq!(
            kept,
            [
                k("E7006", "t.yaml", 12, "a"),
                k("W0010", "t.yaml", 3, "b"),
                k("E7006", "t.yaml", 13, "a"),
                k("W0010", "t.yaml", 3, "c"),
                k("E7007", "t.yaml", 12, "a"),
                k("E7006", "u.yaml", 12, "a"),
                k("E7006", "t.yaml", 0, "a"),
            ]
        );
    }

    /// A hasher that hashes everything alike.
    #[derive(Default)]
    struct Constant;

    impl std::hash::Hasher for Constant {
        fn finish(&self) -> u64 {
            7
        }
        fn write(&mut self, _: &[u8]) {}
    }
}
