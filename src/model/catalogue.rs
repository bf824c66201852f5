//! A tree's environment catalogue: TripleO's `capabilities-map.yaml`
//! (2015-12 to 2020-02), read as topics → environment groups →
//! environments (`file`, `title`, `description`, `requires`), a group
//! possibly `mutually_exclusive`. Each part keeps what was written (for
//! tripleo-common's JSON shape) and its position (for findings). Files are
//! named relative to the map's directory, the tree's root.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::Value as J;

use crate::diag::{codes, Diagnostic, Span};
use crate::node::{Mapping, Node, Value};
use crate::walk::normalize;

/// One environment the catalogue offers.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CatalogueEnvironment {
    /// `file`, relative to the map's directory, without `.` and `..`.
    pub file: String,
    /// Where `file`'s value is written.
    pub span: Span,
    /// `requires`: each environment's name (normalised as `file`) and where
    /// it is written.
    pub requires: Vec<(String, Span)>,
    /// Every key as written (the JSON tripleo-common returned).
    pub written: IndexMap<String, J>,
}

/// One environment group of a topic.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CatalogueGroup {
    /// `title`, when it is text.
    pub title: Option<String>,
    /// `mutually_exclusive`, when written (a boolean as YAML reads it).
    pub mutually_exclusive: Option<bool>,
    /// Its environments.
    pub environments: Vec<CatalogueEnvironment>,
    /// Every key but `environments`, as written.
    pub written: IndexMap<String, J>,
}

/// One topic.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CatalogueTopic {
    /// `title`, when it is text.
    pub title: Option<String>,
    /// Its groups.
    pub groups: Vec<CatalogueGroup>,
    /// Every key but `environment_groups`, as written.
    pub written: IndexMap<String, J>,
    /// Where `environment_groups` is written (or the topic, without it).
    pub span: Span,
}

/// A capabilities map.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Catalogue {
    /// The map file, as given.
    pub path: String,
    /// `root_template` (the 2016 format), as written.
    pub root_template: Option<String>,
    /// `root_environment` (the 2016 format), as written.
    pub root_environment: Option<String>,
    /// The topics, in order.
    pub topics: Vec<CatalogueTopic>,
    /// What is not the catalogue's shape (E9001), each at its place.
    pub diagnostics: Vec<Diagnostic>,
}

/// A file name of the map, relative to its directory, as one text.
fn tree_name(s: &str) -> String {
    normalize(Path::new(s))
}

impl Catalogue {
    /// Reads a capabilities map document (`path` as given).
    pub fn from_node(path: &str, root: &Node) -> Catalogue {
        let mut c = Catalogue {
            path: path.to_owned(),
            ..Catalogue::default()
        };
        let Some(map) = root.as_map() else {
            c.invalid(
                root.span,
                format!("the map is {}, not a mapping", root.value.kind_name()),
            );
            return c;
        };
        let text = |k: &str| map.get(k).and_then(Node::as_str).map(str::to_owned);
        c.root_template = text("root_template");
        c.root_environment = text("root_environment");
        match map.get("topics") {
            Some(n) => match n.as_seq() {
                Some(items) => {
                    for (i, t) in items.iter().enumerate() {
                        if let Some(topic) = c.topic(i, t) {
                            c.topics.push(topic);
                        }
                    }
                }
                None => c.invalid(
                    n.span,
                    format!("`topics` is {}, not a list", n.value.kind_name()),
                ),
            },
            None => c.invalid(root.span, "the map has no `topics`"),
        }
        c
    }

    fn invalid(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::new(codes::CATALOGUE_INVALID, &self.path, message).at(span));
    }

    /// A list under `key` of a mapping, or a diagnostic.
    fn list<'n>(&mut self, m: &'n Mapping, at: Span, key: &str, of: &str) -> &'n [Node] {
        let Some(n) = m.get(key) else {
            self.invalid(at, format!("{of} has no `{key}`"));
            return &[];
        };
        n.as_seq().unwrap_or_else(|| {
            if n.value != Value::Null {
                self.invalid(
                    n.span,
                    format!("`{key}` of {of} is {}, not a list", n.value.kind_name()),
                );
            }
            &[]
        })
    }

    fn topic(&mut self, i: usize, node: &Node) -> Option<CatalogueTopic> {
        let Some(m) = node.as_map() else {
            self.invalid(
                node.span,
                format!("`topics[{i}]` is {}, not a mapping", node.value.kind_name()),
            );
            return None;
        };
        let of = format!("topic {}", i + 1);
        let span = m
            .entry("environment_groups")
            .map_or(node.span, |(k, _)| k.span);
        let groups = self
            .list(m, node.span, "environment_groups", &of)
            .iter()
            .enumerate()
            .filter_map(|(j, g)| self.group(&of, j, g))
            .collect();
        Some(CatalogueTopic {
            title: m.get("title").and_then(Node::as_str).map(str::to_owned),
            groups,
            written: written(m, "environment_groups"),
            span,
        })
    }

    fn group(&mut self, topic: &str, j: usize, node: &Node) -> Option<CatalogueGroup> {
        let of = format!("group {} of {topic}", j + 1);
        let Some(m) = node.as_map() else {
            self.invalid(
                node.span,
                format!("{of} is {}, not a mapping", node.value.kind_name()),
            );
            return None;
        };
        let mutually_exclusive = match m.get("mutually_exclusive") {
            None => None,
            Some(Node {
                value: Value::Bool(b),
                ..
            }) => Some(*b),
            Some(n) => {
                self.invalid(
                    n.span,
                    format!(
                        "`mutually_exclusive` of {of} is {}, not a boolean",
                        n.value.kind_name()
                    ),
                );
                None
            }
        };
        let environments = self
            .list(m, node.span, "environments", &of)
            .iter()
            .filter_map(|e| self.environment(&of, e))
            .collect();
        Some(CatalogueGroup {
            title: m.get("title").and_then(Node::as_str).map(str::to_owned),
            mutually_exclusive,
            environments,
            written: written(m, "environments"),
        })
    }

    fn environment(&mut self, group: &str, node: &Node) -> Option<CatalogueEnvironment> {
        let Some(m) = node.as_map() else {
            self.invalid(
                node.span,
                format!(
                    "an environment of {group} is {}, not a mapping",
                    node.value.kind_name()
                ),
            );
            return None;
        };
        let Some(f) = m.get("file") else {
            self.invalid(
                node.span,
                format!("an environment of {group} has no `file`"),
            );
            return None;
        };
        let file = match f.as_str() {
            Some(s) if !s.is_empty() => (tree_name(s), f.span),
            _ => {
                self.invalid(
                    f.span,
                    format!("`file` of an environment of {group} is not a file name"),
                );
                return None;
            }
        };
        let mut requires = Vec::new();
        if let Some(r) = m.get("requires") {
            match r.as_seq() {
                Some(items) => {
                    for item in items {
                        match item.as_str() {
                            Some(s) if !s.is_empty() => requires.push((tree_name(s), item.span)),
                            _ => self.invalid(
                                item.span,
                                format!("a `requires` item of `{}` is not a file name", file.0),
                            ),
                        }
                    }
                }
                None if r.value == Value::Null => {}
                None => self.invalid(
                    r.span,
                    format!(
                        "`requires` of `{}` is {}, not a list",
                        file.0,
                        r.value.kind_name()
                    ),
                ),
            }
        }
        Some(CatalogueEnvironment {
            file: file.0,
            span: file.1,
            requires,
            written: written(m, ""),
        })
    }

    /// The map's directory (the tree's root), as shown.
    pub fn dir(&self) -> PathBuf {
        Path::new(&self.path)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    }

    /// Every environment, in map order, with its topic and group.
    pub fn environments(
        &self,
    ) -> impl Iterator<Item = (&CatalogueTopic, &CatalogueGroup, &CatalogueEnvironment)> {
        self.topics.iter().flat_map(|t| {
            t.groups
                .iter()
                .flat_map(move |g| g.environments.iter().map(move |e| (t, g, e)))
        })
    }

    /// The entry of a file (a name relative to the map), the first when
    /// listed twice.
    pub fn entry(&self, file: &str) -> Option<&CatalogueEnvironment> {
        let file = tree_name(file);
        self.environments()
            .map(|(_, _, e)| e)
            .find(|e| e.file == file)
    }

    /// True when the map says its groups are exclusive only where they say
    /// `mutually_exclusive: true` (the format since THT `6a3ad6fa4`,
    /// 2017-07): some group writes the key. Before, the map's own header
    /// said "if group includes multiple environments it indicates that
    /// environments in group are mutually exclusive".
    pub fn explicit_exclusion(&self) -> bool {
        self.topics
            .iter()
            .flat_map(|t| &t.groups)
            .any(|g| g.mutually_exclusive.is_some())
    }

    /// Whether a group's environments exclude each other: its
    /// `mutually_exclusive`, or, in a map that never writes the key (the
    /// 2016 format), whether it holds more than one environment.
    pub fn group_exclusive(&self, g: &CatalogueGroup) -> bool {
        match g.mutually_exclusive {
            Some(b) => b,
            None => !self.explicit_exclusion() && g.environments.len() > 1,
        }
    }

    /// Whether the catalogue declares environments `a` and `b` (names
    /// relative to the map's directory, as the map writes them) mutually
    /// exclusive: two different files of one exclusive group (see
    /// [`Catalogue::group_exclusive`]). An environment is not exclusive
    /// with itself; a file the map does not list excludes nothing.
    ///
    /// ```
    /// # use heatcap::Catalogue;
    /// let map = "topics:\n- title: Storage\n  environment_groups:\n  - mutually_exclusive: true\n    environments:\n    - {file: environments/ceph.yaml}\n    - {file: environments/nfs.yaml}\n";
    /// let c = Catalogue::parse(map, "capabilities-map.yaml");
    /// assert!(c.mutually_exclusive("environments/ceph.yaml", "environments/nfs.yaml"));
    /// assert!(!c.mutually_exclusive("environments/ceph.yaml", "environments/ceph.yaml"));
    /// ```
    pub fn mutually_exclusive(&self, a: &str, b: &str) -> bool {
        let (a, b) = (tree_name(a), tree_name(b));
        a != b
            && self.topics.iter().flat_map(|t| &t.groups).any(|g| {
                self.group_exclusive(g)
                    && g.environments.iter().any(|e| e.file == a)
                    && g.environments.iter().any(|e| e.file == b)
            })
    }

    /// [`Catalogue::mutually_exclusive`] for paths as the user gave them
    /// (`-e tree/environments/x.yaml`), each taken relative to the map's
    /// directory ([`Catalogue::relative`]); a path outside the tree excludes
    /// nothing.
    pub fn mutually_exclusive_paths(&self, a: &str, b: &str) -> bool {
        match (self.relative(a), self.relative(b)) {
            (Some(a), Some(b)) => self.mutually_exclusive(&a, &b),
            _ => false,
        }
    }

    /// Reads a map from its text (`path` as shown); a map that does not
    /// parse is an empty catalogue with the parser's diagnostics.
    pub fn parse(text: &str, path: &str) -> Catalogue {
        let parsed = crate::load::parse_text(text, path, &crate::load::ParseOptions::default());
        match parsed.root {
            Some(root) => {
                let mut c = Catalogue::from_node(path, &root);
                let mut d = parsed.diagnostics;
                d.append(&mut c.diagnostics);
                c.diagnostics = d;
                c
            }
            None => Catalogue {
                path: path.to_owned(),
                diagnostics: parsed.diagnostics,
                ..Catalogue::default()
            },
        }
    }

    /// A path as the user gave it (`-e`, a plan's entry joined with the
    /// plan's directory) as a name relative to the map's directory, when
    /// it is below it (by real path when both exist, else as text).
    pub fn relative(&self, path: &str) -> Option<String> {
        let dir = self.dir();
        let p = Path::new(path);
        let real = |q: &Path| {
            std::fs::canonicalize(if q.as_os_str().is_empty() {
                Path::new(".")
            } else {
                q
            })
            .ok()
        };
        if let (Some(d), Some(f)) = (real(&dir), real(p)) {
            if let Ok(rel) = f.strip_prefix(&d) {
                return Some(tree_name(&crate::walk::display(rel)));
            }
        }
        let (d, f) = (normalize(&dir), normalize(p));
        if d.is_empty() || d == "." {
            return (!f.starts_with("../") && !f.starts_with('/')).then_some(f);
        }
        f.strip_prefix(&format!("{d}/")).map(str::to_owned)
    }
}

/// A mapping's keys and values as written, but `skip`.
fn written(m: &Mapping, skip: &str) -> IndexMap<String, J> {
    m.entries
        .iter()
        .map(|(k, v)| (k.value.key_text(), v))
        .filter(|(k, _)| k != skip)
        .map(|(k, v)| (k, v.value.to_json()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "\
topics:
  - title: Network
    environment_groups:
      - title: Isolation
        mutually_exclusive: true
        environments:
          - file: environments/net-v4.yaml
            title: IPv4
            requires: [base.yaml]
          - file: ./environments/net-v6.yaml
            title: IPv6
      - title: Extras
        environments:
          - file: environments/a.yaml
          - file: environments/b.yaml
";

    #[test]
    fn exclusion_is_what_the_group_says() {
        let c = Catalogue::parse(MAP, "tree/capabilities-map.yaml");
        assert!(c.diagnostics.is_empty());
        assert!(c.mutually_exclusive("environments/net-v4.yaml", "environments/net-v6.yaml"));
        assert!(c.mutually_exclusive("environments/net-v6.yaml", "./environments/net-v4.yaml"));
        // A map that writes the key somewhere: a group without it is not exclusive.
        assert!(!c.mutually_exclusive("environments/a.yaml", "environments/b.yaml"));
        assert!(!c.mutually_exclusive("environments/net-v4.yaml", "environments/a.yaml"));
        assert!(!c.mutually_exclusive("environments/net-v4.yaml", "environments/net-v4.yaml"));
        assert!(!c.mutually_exclusive("unknown.yaml", "environments/net-v4.yaml"));
    }

    #[test]
    fn the_2016_format_makes_groups_of_several_exclusive() {
        let old = MAP.replace("        mutually_exclusive: true\n", "");
        let c = Catalogue::parse(&old, "capabilities-map.yaml");
        assert!(!c.explicit_exclusion());
        assert!(c.mutually_exclusive("environments/a.yaml", "environments/b.yaml"));
        assert!(c.mutually_exclusive("environments/net-v4.yaml", "environments/net-v6.yaml"));
        let one = "topics:\n- environment_groups:\n  - environments:\n    - file: x.yaml\n";
        let c = Catalogue::parse(one, "capabilities-map.yaml");
        assert!(!c.mutually_exclusive("x.yaml", "y.yaml"));
    }

    #[test]
    fn names_are_relative_to_the_map() {
        let c = Catalogue::parse(MAP, "tree/capabilities-map.yaml");
        let e = c.entry("environments/net-v6.yaml").unwrap();
        assert_eq!(e.file, "environments/net-v6.yaml");
        assert_eq!(
            c.entry("environments/net-v4.yaml").unwrap().requires[0].0,
            "base.yaml"
        );
        assert_eq!(
            c.relative("tree/environments/x.yaml").as_deref(),
            Some("environments/x.yaml")
        );
        assert_eq!(c.relative("elsewhere/x.yaml"), None);
        assert!(c.mutually_exclusive_paths(
            "tree/environments/net-v4.yaml",
            "tree/./environments/net-v6.yaml"
        ));
        assert!(!c
            .mutually_exclusive_paths("environments/net-v4.yaml", "tree/environments/net-v6.yaml"));
        assert_eq!(e.written["title"], serde_json::json!("IPv6"));
    }

    #[test]
    fn bad_shapes_are_positioned_and_the_rest_is_read() {
        let bad = "topics:\n- title: T\n  environment_groups:\n  - environments:\n    - title: no file\n    - file: ok.yaml\n      requires: base.yaml\n  - mutually_exclusive: maybe\n    environments: []\n- 42\n";
        let c = Catalogue::parse(bad, "m.yaml");
        let lines: Vec<u32> = c
            .diagnostics
            .iter()
            .map(|d| d.span.unwrap().start.line)
            .collect();
        assert_eq!(lines, [5, 7, 8, 10]);
        assert!(c
            .diagnostics
            .iter()
            .all(|d| d.code == codes::CATALOGUE_INVALID));
        assert!(c.entry("ok.yaml").is_some());
    }
}
