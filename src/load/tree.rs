//! Builds a [`Node`] tree from parser events exactly as Heat's loader does:
//! PyYAML's composer, YAML 1.1 resolver and SafeConstructor, with Heat's two
//! overrides (`str` and `timestamp` return the raw text). See
//! heat-semantics §1.2. The events come from [`super::yaml`], the only module
//! that knows the YAML crate; this one is independent of it.
//!
//! Differences from PyYAML that are deliberate: duplicate keys produce a
//! warning (Heat is silent); nesting depth and alias expansion are bounded
//! (PyYAML hits Python's recursion limit, or shares nodes by reference);
//! `!!binary` values stay as their base64 text.

use std::collections::HashMap;

use compact_str::CompactString;

use crate::diag::{codes, Code, Diagnostic, Related, Span};
use crate::node::scalar::{
    construct_float, construct_int, resolve_plain, yaml11_bool, MERGE_MARK, VALUE_MARK,
};
use crate::node::{KeyId, Mapping, Node, Value};

/// A parser event, with tags already expanded (`!!str` is
/// `tag:yaml.org,2002:str`).
#[derive(Debug)]
pub(crate) enum Event {
    DocumentStart(Span),
    DocumentEnd,
    Scalar {
        value: CompactString,
        /// libyaml's `plain_implicit`: a plain scalar without a tag, or any
        /// scalar tagged `!`. PyYAML resolves exactly these by pattern.
        implicit: bool,
        tag: Option<String>,
        anchor: Option<String>,
        span: Span,
    },
    SequenceStart {
        tag: Option<String>,
        anchor: Option<String>,
        span: Span,
    },
    MappingStart {
        tag: Option<String>,
        anchor: Option<String>,
        span: Span,
    },
    /// End of the innermost collection, with the position after it.
    CollectionEnd(Span),
    Alias {
        name: String,
        span: Span,
    },
}

/// A fatal problem in one file: the file has no tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fatal {
    pub code: Code,
    pub message: String,
    pub span: Option<Span>,
}

impl Fatal {
    pub(crate) fn new(code: Code, message: impl Into<String>, span: Option<Span>) -> Self {
        Fatal {
            code,
            message: message.into(),
            span,
        }
    }
}

/// Which scalar grammar plain scalars follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// PyYAML's YAML 1.1 resolver (templates and environments).
    Yaml11,
    /// The same resolver with the plain `SafeLoader`'s constructors, as
    /// Heat's fallback loader reads a file libyaml refuses: a timestamp is
    /// a Python date, which the client sends as JSON text
    /// ([`super::pyyaml::timestamp_text`]).
    Yaml11Fallback,
    /// JSON (`true`, `false`, `null`, JSON numbers, Python's `NaN`/`Infinity`).
    Json,
}

/// Bounds that keep a hostile file cheap.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TreeLimits {
    pub max_depth: usize,
    pub max_alias_nodes: usize,
    /// Build only what the index's view of a file reads
    /// ([`crate::model::Template::slim_from_node`]): the values of
    /// `outputs`, and of a resource's keys other than its type and
    /// properties, and of its properties other than a group's or chain's
    /// members, are built (every check runs on them, so the diagnostics
    /// are the same) and dropped as soon as they are, left as null. A huge
    /// template's tree then holds little more than its resources' names
    /// and types.
    pub index_only: bool,
}

const TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// An open collection. Its items (pairs) so far are at the end of the
/// builder's `items` (`pairs`) from `start` on: one stack for every open
/// collection, so that a collection's vector is allocated once, at its
/// exact size, when it closes.
enum Frame {
    Seq {
        tag: Option<String>,
        anchor: Option<String>,
        span: Span,
        start: usize,
    },
    Map {
        tag: Option<String>,
        anchor: Option<String>,
        span: Span,
        start: usize,
        /// Positions among this mapping's pairs whose key was a merge key
        /// (`<<`).
        merge_at: Vec<usize>,
        pending_key: Option<(Node, bool)>,
    },
}

/// The builder's stacks start at a size that holds most files' open
/// collections: growing them from nothing copied their contents four or
/// five times for every file.
const STACK_START: usize = 64;

/// Builds the tree of a single-document stream. Warnings (duplicate keys)
/// go to `warnings`; the first fatal problem ends the build.
pub(crate) fn build(
    events: impl Iterator<Item = Result<Event, Fatal>>,
    dialect: Dialect,
    limits: TreeLimits,
    file: &str,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Node, Fatal> {
    let mut b = Builder {
        dialect,
        limits,
        file,
        warnings,
        anchors: HashMap::new(),
        stack: Vec::with_capacity(STACK_START / 4),
        items: Vec::with_capacity(STACK_START / 4),
        pairs: Vec::with_capacity(STACK_START),
        alias_nodes: 0,
    };
    let mut root: Option<Node> = None;
    let mut documents = 0usize;
    for event in events {
        match event? {
            Event::DocumentStart(span) => {
                documents += 1;
                if documents > 1 {
                    return Err(Fatal::new(
                        codes::MULTI_DOCUMENT,
                        "expected a single document in the stream, but found another document",
                        Some(span),
                    ));
                }
            }
            Event::DocumentEnd => {}
            Event::Scalar {
                value,
                implicit,
                tag,
                anchor,
                span,
            } => {
                let node = Node::new(b.scalar(value, implicit, tag.as_deref(), span)?, span);
                b.finish_node(node, anchor, false, &mut root)?;
            }
            Event::Alias { name, span } => {
                let node = b.alias(&name, span)?;
                b.finish_node(node, None, false, &mut root)?;
            }
            Event::SequenceStart { tag, anchor, span } => {
                let start = b.items.len();
                b.push(Frame::Seq {
                    tag,
                    anchor,
                    span,
                    start,
                })?;
            }
            Event::MappingStart { tag, anchor, span } => {
                let start = b.pairs.len();
                b.push(Frame::Map {
                    tag,
                    anchor,
                    span,
                    start,
                    merge_at: Vec::new(),
                    pending_key: None,
                })?;
            }
            Event::CollectionEnd(end) => {
                let frame = b.stack.pop().ok_or_else(|| {
                    Fatal::new(codes::YAML_SYNTAX, "unbalanced collection end", Some(end))
                })?;
                let (node, anchor) = b.close(frame, end)?;
                b.finish_node(node, anchor, true, &mut root)?;
            }
        }
    }
    Ok(root.unwrap_or_else(|| Node::new(Value::Null, Span::point(1, 1))))
}

struct Builder<'a> {
    dialect: Dialect,
    limits: TreeLimits,
    file: &'a str,
    warnings: &'a mut Vec<Diagnostic>,
    anchors: HashMap<String, (Node, usize)>,
    stack: Vec<Frame>,
    /// The items of the open sequences, innermost last.
    items: Vec<Node>,
    /// The pairs of the open mappings, innermost last.
    pairs: Vec<(Node, Node)>,
    alias_nodes: usize,
}

impl Builder<'_> {
    fn push(&mut self, frame: Frame) -> Result<(), Fatal> {
        if self.stack.len() >= self.limits.max_depth {
            let span = match &frame {
                Frame::Seq { span, .. } | Frame::Map { span, .. } => *span,
            };
            return Err(Fatal::new(
                codes::TOO_DEEP,
                format!(
                    "the document nests deeper than {} levels",
                    self.limits.max_depth
                ),
                Some(span),
            ));
        }
        self.stack.push(frame);
        Ok(())
    }

    fn alias(&mut self, name: &str, span: Span) -> Result<Node, Fatal> {
        let Some((node, size)) = self.anchors.get(name) else {
            return Err(Fatal::new(
                codes::YAML_SYNTAX,
                format!("found undefined alias `{name}`"),
                Some(span),
            ));
        };
        self.alias_nodes += size;
        if self.alias_nodes > self.limits.max_alias_nodes {
            return Err(Fatal::new(
                codes::ALIAS_EXPANSION,
                format!(
                    "aliases expand to more than {} nodes",
                    self.limits.max_alias_nodes
                ),
                Some(span),
            ));
        }
        Ok(node.clone())
    }

    /// Attaches a finished node to its parent (or makes it the root).
    fn finish_node(
        &mut self,
        node: Node,
        anchor: Option<String>,
        _collection: bool,
        root: &mut Option<Node>,
    ) -> Result<(), Fatal> {
        if let Some(anchor) = anchor {
            let size = count_nodes(&node);
            self.anchors.insert(anchor, (node.clone(), size));
        }
        let in_key_position = matches!(
            self.stack.last(),
            Some(Frame::Map {
                pending_key: None,
                ..
            })
        );
        let mut node = node;
        if let Value::Str(s) = &node.value {
            if s == VALUE_MARK {
                if !in_key_position {
                    return Err(no_constructor("tag:yaml.org,2002:value", node.span));
                }
                node.value = Value::Str("=".to_owned().into());
            } else if s == MERGE_MARK && !in_key_position {
                return Err(no_constructor("tag:yaml.org,2002:merge", node.span));
            }
        }
        if self.limits.index_only && self.unread_by_index() {
            node = Node::new(Value::Null, node.span);
        }
        match self.stack.last_mut() {
            None => *root = Some(node),
            Some(Frame::Seq { .. }) => self.items.push(node),
            Some(Frame::Map {
                start,
                merge_at,
                pending_key,
                ..
            }) => match pending_key.take() {
                None => {
                    let is_merge = matches!(&node.value, Value::Str(s) if s == MERGE_MARK);
                    let key = if is_merge {
                        Node::new(Value::Str("<<".to_owned().into()), node.span)
                    } else {
                        node
                    };
                    *pending_key = Some((key, is_merge));
                }
                Some((key, is_merge)) => {
                    if is_merge {
                        merge_at.push(self.pairs.len() - *start);
                    }
                    self.pairs.push((key, node));
                }
            },
        }
        Ok(())
    }

    /// Whether the node being attached is a value (not a key, not a merge
    /// source) the index's view never reads (see
    /// [`TreeLimits::index_only`]): at `outputs.NAME`,
    /// `resources.NAME.KEY` (not `type`, `properties`),
    /// `resources.NAME.properties.KEY` (not `resources`, `resource_def`,
    /// `resource`) and `resources.NAME.properties.resource_def.KEY` (not
    /// `type`), and the CFN spellings.
    fn unread_by_index(&self) -> bool {
        // The key of each mapping on the way down; `None` under a list, or
        // for a key that is not a string, or when the node is a key.
        let key = |j: usize| match self.stack.get(j) {
            Some(Frame::Map {
                pending_key: Some((k, false)),
                ..
            }) => k.value.as_str(),
            _ => None,
        };
        let depth = self.stack.len();
        if !(2..=5).contains(&depth) || (0..depth).any(|j| key(j).is_none()) {
            return false;
        }
        let here = key(depth - 1).unwrap_or_default();
        let in_resources = || matches!(key(0), Some("resources" | "Resources"));
        let in_properties = || matches!(key(2), Some("properties" | "Properties"));
        match depth {
            2 => matches!(key(0), Some("outputs" | "Outputs")),
            3 => in_resources() && !matches!(here, "type" | "Type" | "properties" | "Properties"),
            4 => {
                in_resources()
                    && in_properties()
                    && !matches!(here, "resources" | "resource_def" | "resource")
            }
            5 => {
                in_resources()
                    && in_properties()
                    && matches!(key(3), Some("resource_def" | "resource"))
                    && here != "type"
            }
            _ => false,
        }
    }

    fn close(&mut self, frame: Frame, end: Span) -> Result<(Node, Option<String>), Fatal> {
        match frame {
            Frame::Seq {
                tag,
                anchor,
                span,
                start,
            } => {
                // Exact capacity: a tree is held whole, and a vector's
                // growth leaves up to half of it unused.
                let items: Vec<Node> = self.items.drain(start..).collect();
                let span = Span {
                    start: span.start,
                    end: end.end,
                };
                let value = match tag.as_deref() {
                    None | Some("!" | "tag:yaml.org,2002:seq") => Value::Seq(items),
                    Some("tag:yaml.org,2002:omap" | "tag:yaml.org,2002:pairs") => {
                        Value::Seq(pairs_to_seq(items, span)?)
                    }
                    Some(t) => return Err(no_constructor(t, span)),
                };
                Ok((Node::new(value, span), anchor))
            }
            Frame::Map {
                tag,
                anchor,
                span,
                start,
                merge_at,
                ..
            } => {
                let pairs: Vec<(Node, Node)> = self.pairs.drain(start..).collect();
                let span = Span {
                    start: span.start,
                    end: end.end,
                };
                match tag.as_deref() {
                    None | Some("!") => {}
                    Some(t) if t == "tag:yaml.org,2002:map" || t == "tag:yaml.org,2002:set" => {}
                    Some(t) => return Err(no_constructor(t, span)),
                }
                let mapping = self.flatten(pairs, &merge_at, span)?;
                Ok((Node::new(Value::Map(mapping), span), anchor))
            }
        }
    }

    /// PyYAML's `flatten_mapping` + `construct_mapping`: merged entries
    /// first (an earlier merge source wins over a later one), then the
    /// mapping's own entries; a repeated key keeps its first position and
    /// takes the last value.
    fn flatten(
        &mut self,
        pairs: Vec<(Node, Node)>,
        merge_at: &[usize],
        span: Span,
    ) -> Result<Mapping, Fatal> {
        // The common case, a small mapping without merge keys or repeated
        // keys: the pairs are the mapping, as they are.
        if merge_at.is_empty() && pairs.len() <= 12 {
            let clean = pairs.iter().enumerate().all(|(i, (k, _))| {
                !matches!(k.value, Value::Seq(_) | Value::Map(_))
                    && pairs[..i]
                        .iter()
                        .all(|(earlier, _)| !earlier.value.same_key(&k.value))
            });
            if clean {
                // Exact capacity: a tree is held whole, and a vector's
                // growth (4 slots for a 1-entry mapping) leaves much unused.
                let mut pairs = pairs;
                pairs.shrink_to_fit();
                return Ok(Mapping::from_entries(pairs));
            }
        }
        // A large mapping without merge keys or repeated keys (a huge
        // template's `resources`): the pairs are the mapping too, found so
        // by one set of key identities, with no second vector and index.
        if merge_at.is_empty() && pairs.len() > 12 {
            let mut seen: foldhash::HashSet<KeyId> = foldhash::HashSet::with_capacity_and_hasher(
                pairs.len(),
                foldhash::fast::RandomState::default(),
            );
            let clean = pairs.iter().enumerate().all(|(i, (k, _))| {
                !matches!(k.value, Value::Seq(_) | Value::Map(_)) && seen.insert(k.value.key_id(i))
            });
            drop(seen);
            if clean {
                let mut pairs = pairs;
                pairs.shrink_to_fit();
                return Ok(Mapping::from_entries(pairs));
            }
        }
        let pairs = pairs
            .into_iter()
            .enumerate()
            .map(|(i, (k, v))| (k, v, merge_at.contains(&i)));
        let (merged, own) = split_merges(pairs)?;
        let mut out = Mapping::default();
        let total = merged.len() + own.len();
        // Exact capacity (a repeated key only leaves a slot unused): a tree
        // is held whole, and a vector's growth leaves up to half unused.
        out.entries.reserve_exact(total);
        // Small mappings (most of Heat's): linear scans, no allocation.
        // Large ones: a hash index by Python key identity.
        let mut index: Option<foldhash::HashMap<KeyId, usize>> =
            (total > 12).then(foldhash::HashMap::default);
        let mut own_seen: Option<foldhash::HashMap<KeyId, Span>> =
            (total > 12).then(foldhash::HashMap::default);
        // For small mappings: entry positions set by the mapping's own keys.
        let mut own_small: Vec<(usize, Span)> = Vec::new();
        let merged_len = merged.len();
        for (i, (key, value)) in merged.into_iter().chain(own).enumerate() {
            if matches!(key.value, Value::Seq(_) | Value::Map(_)) {
                return Err(Fatal::new(
                    codes::YAML_SYNTAX,
                    "found unhashable key (a list or mapping used as a mapping key)",
                    Some(key.span),
                ));
            }
            let existing = match &mut index {
                Some(ix) => ix.get(&key.value.key_id(i)).copied(),
                None => out
                    .entries
                    .iter()
                    .position(|(k, _)| k.value.same_key(&key.value)),
            };
            if i >= merged_len {
                // A repeated key among the mapping's own keys is a duplicate;
                // an own key overriding a merged one is not.
                let first = if let Some(seen) = &mut own_seen {
                    let id = key.value.key_id(i);
                    let first = seen.get(&id).copied();
                    seen.entry(id).or_insert(key.span);
                    first
                } else {
                    let pos = existing.unwrap_or(out.entries.len());
                    let first = own_small.iter().find(|(p, _)| *p == pos).map(|(_, s)| *s);
                    if first.is_none() {
                        own_small.push((pos, key.span));
                    }
                    first
                };
                if let Some(first) = first {
                    self.warn_duplicate(&key, first);
                }
            }
            if let Some(pos) = existing {
                // Python's dict keeps the first key (its place, and its
                // value: `1` stays `1` after `true`) and the last value;
                // the key's position is the last one's, so positions point
                // at the entry that wins.
                out.entries[pos].0.span = key.span;
                out.entries[pos].1 = value;
            } else {
                if let Some(ix) = &mut index {
                    ix.insert(key.value.key_id(i), out.entries.len());
                }
                out.entries.push((key, value));
            }
        }
        let _ = span;
        Ok(out)
    }

    fn warn_duplicate(&mut self, key: &Node, first: Span) {
        let name = key.value.key_text();
        self.warnings.push(
            Diagnostic::new(
                codes::DUPLICATE_KEY,
                self.file,
                format!(
                    "duplicate key `{name}`: the last value wins (first at line {})",
                    first.start.line
                ),
            )
            .at(key.span)
            .with_related(Related {
                file: self.file.to_owned(),
                span: Some(first),
                message: format!("first `{name}` here"),
            }),
        );
    }

    fn scalar(
        &self,
        text: CompactString,
        implicit: bool,
        tag: Option<&str>,
        span: Span,
    ) -> Result<Value, Fatal> {
        match tag {
            None | Some("!") if implicit => match self.dialect {
                Dialect::Yaml11 => Ok(resolve_plain(text)),
                Dialect::Yaml11Fallback => match resolve_plain(text) {
                    Value::Str(s) if super::pyyaml::is_implicit_timestamp(&s) => {
                        python_timestamp(&s, span)
                    }
                    other => Ok(other),
                },
                Dialect::Json => Ok(resolve_json(text)),
            },
            None | Some("!") => Ok(Value::Str(text)),
            Some("tag:yaml.org,2002:timestamp") if self.dialect == Dialect::Yaml11Fallback => {
                python_timestamp(&text, span)
            }
            Some(t) => construct_tagged(t, text, span),
        }
    }
}

/// PyYAML's `flatten_mapping`: the entries merge keys bring in (an earlier
/// source of a `<<: [*a, *b]` list wins over a later one), and the
/// mapping's own entries.
#[allow(clippy::type_complexity)]
fn split_merges(
    pairs: impl ExactSizeIterator<Item = (Node, Node, bool)>,
) -> Result<(Vec<(Node, Node)>, Vec<(Node, Node)>), Fatal> {
    let mut merged: Vec<(Node, Node)> = Vec::new();
    let mut own: Vec<(Node, Node)> = Vec::with_capacity(pairs.len());
    for (key, value, is_merge) in pairs {
        if !is_merge {
            own.push((key, value));
            continue;
        }
        match value.value {
            Value::Map(m) => merged.extend(m.entries),
            Value::Seq(items) => {
                let mut sub = Vec::new();
                for item in items {
                    match item.value {
                        Value::Map(m) => sub.push(m.entries),
                        other => {
                            return Err(Fatal::new(
                                codes::YAML_SYNTAX,
                                format!(
                                    "expected a mapping for merging, but found {}",
                                    other.kind_name()
                                ),
                                Some(item.span),
                            ))
                        }
                    }
                }
                for entries in sub.into_iter().rev() {
                    merged.extend(entries);
                }
            }
            other => {
                return Err(Fatal::new(
                    codes::YAML_SYNTAX,
                    format!(
                        "expected a mapping or list of mappings for merging, but found {}",
                        other.kind_name()
                    ),
                    Some(value.span),
                ))
            }
        }
    }
    Ok((merged, own))
}

fn count_nodes(node: &Node) -> usize {
    match &node.value {
        Value::Seq(items) => 1 + items.iter().map(count_nodes).sum::<usize>(),
        Value::Map(m) => {
            1 + m
                .entries
                .iter()
                .map(|(k, v)| count_nodes(k) + count_nodes(v))
                .sum::<usize>()
        }
        _ => 1,
    }
}

fn no_constructor(tag: &str, span: Span) -> Fatal {
    Fatal::new(
        codes::YAML_SYNTAX,
        format!("could not determine a constructor for the tag `{tag}`"),
        Some(span),
    )
}

fn pairs_to_seq(items: Vec<Node>, span: Span) -> Result<Vec<Node>, Fatal> {
    items
        .into_iter()
        .map(|item| match item.value {
            Value::Map(m) if m.len() == 1 => {
                let (k, v) = m.entries.into_iter().next().expect("one entry");
                Ok(Node::new(Value::Seq(vec![k, v]), item.span))
            }
            _ => Err(Fatal::new(
                codes::YAML_SYNTAX,
                "expected a single mapping item in an ordered map",
                Some(span),
            )),
        })
        .collect()
}

/// Plain scalars of a JSON document, as Python's `json` reads them.
fn resolve_json(text: CompactString) -> Value {
    match text.as_str() {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "null" => Value::Null,
        "NaN" => Value::Float(f64::NAN),
        "Infinity" => Value::Float(f64::INFINITY),
        "-Infinity" => Value::Float(f64::NEG_INFINITY),
        t if t.contains(['.', 'e', 'E']) => t
            .parse::<f64>()
            .map_or_else(|_| Value::Str(text.clone()), Value::Float),
        t => match t.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_)
                if t.trim_start_matches('-')
                    .bytes()
                    .all(|c| c.is_ascii_digit()) =>
            {
                Value::BigInt(text)
            }
            Err(_) => Value::Str(text),
        },
    }
}

/// A timestamp as the plain `SafeConstructor` builds it and the client
/// sends it; its `ValueError` (an impossible date) or, for an explicit
/// `!!timestamp` that is no timestamp, its `AttributeError`, as a fatal
/// error (neither is a `YAMLError`, so nothing retries).
fn python_timestamp(text: &str, span: Span) -> Result<Value, Fatal> {
    match super::pyyaml::timestamp_text(text) {
        Some(Ok(s)) => Ok(Value::Str(s.into())),
        Some(Err(e)) => Err(Fatal::new(codes::YAML_SYNTAX, e, Some(span))),
        None => Err(Fatal::new(
            codes::YAML_SYNTAX,
            "'NoneType' object has no attribute 'groupdict'",
            Some(span),
        )),
    }
}

/// An explicitly tagged scalar (`!!int 3`, `!foo x`).
fn construct_tagged(tag: &str, text: CompactString, span: Span) -> Result<Value, Fatal> {
    let Some(short) = tag.strip_prefix(TAG_PREFIX) else {
        return Err(no_constructor(tag, span));
    };
    let bad = |what: &str| {
        Fatal::new(
            codes::YAML_SYNTAX,
            format!("invalid {what} value `{text}` for tag `!!{short}`"),
            Some(span),
        )
    };
    match short {
        "str" | "timestamp" | "binary" => Ok(Value::Str(text)),
        "null" => Ok(Value::Null),
        "bool" => yaml11_bool(&text)
            .or_else(|| yaml11_bool(&text.to_lowercase()))
            .map(Value::Bool)
            .ok_or_else(|| bad("boolean")),
        "int" => construct_int(&text).ok_or_else(|| bad("integer")),
        "float" => construct_float(&text)
            .map(Value::Float)
            .ok_or_else(|| bad("float")),
        _ => Err(no_constructor(tag, span)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> Value {
        resolve_plain(s.into())
    }

    #[test]
    fn yaml11_booleans_and_nulls() {
        for t in [
            "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE",
        ] {
            assert_eq!(plain(t), Value::Bool(true), "{t}");
        }
        for f in [
            "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE",
        ] {
            assert_eq!(plain(f), Value::Bool(false), "{f}");
        }
        for s in ["y", "n", "yEs", "tRUE"] {
            assert_eq!(plain(s), Value::Str(s.into()), "{s}");
        }
        for n in ["~", "null", "Null", "NULL", ""] {
            assert_eq!(plain(n), Value::Null, "{n}");
        }
    }

    #[test]
    fn yaml11_integers() {
        assert_eq!(plain("0755"), Value::Int(493));
        assert_eq!(plain("0x1F"), Value::Int(31));
        assert_eq!(plain("0b101"), Value::Int(5));
        assert_eq!(plain("1_000"), Value::Int(1000));
        assert_eq!(plain("1:20"), Value::Int(80));
        assert_eq!(plain("-42"), Value::Int(-42));
        assert_eq!(plain("+7"), Value::Int(7));
        assert_eq!(plain("0"), Value::Int(0));
        assert_eq!(
            plain("123456789012345678901234567890"),
            Value::BigInt("123456789012345678901234567890".into())
        );
        for s in ["09", "0o17", "1:60x", "0x", "0b", "08"] {
            assert_eq!(plain(s), Value::Str(s.into()), "{s}");
        }
    }

    #[test]
    fn yaml11_floats_need_a_dot_and_signed_exponent() {
        assert_eq!(plain("1.0e+3"), Value::Float(1000.0));
        assert_eq!(plain(".5"), Value::Float(0.5));
        assert_eq!(plain("5."), Value::Float(5.0));
        assert_eq!(plain("1.5"), Value::Float(1.5));
        assert_eq!(plain("-.inf"), Value::Float(f64::NEG_INFINITY));
        assert_eq!(plain("1:30.5"), Value::Float(90.5));
        assert!(matches!(plain(".nan"), Value::Float(f) if f.is_nan()));
        for s in ["1e3", "1e+3", "1.0e3", "-.5", ".", "1.2.3", "-.nan"] {
            assert_eq!(plain(s), Value::Str(s.into()), "{s}");
        }
    }

    #[test]
    fn dates_stay_text() {
        // Heat's loader returns timestamps as their raw text (heat-semantics §1.2).
        for s in ["2015-10-15", "2015-04-30T10:00:00Z", "2015-4-3"] {
            assert_eq!(plain(s), Value::Str(s.into()), "{s}");
        }
    }

    #[test]
    fn json_scalars() {
        assert_eq!(resolve_json("1e3".into()), Value::Float(1000.0));
        assert_eq!(resolve_json("12".into()), Value::Int(12));
        assert_eq!(resolve_json("true".into()), Value::Bool(true));
        assert_eq!(resolve_json("null".into()), Value::Null);
    }

    #[test]
    fn explicit_tags() {
        let sp = Span::point(1, 1);
        assert_eq!(
            construct_tagged("tag:yaml.org,2002:int", "0x10".into(), sp),
            Ok(Value::Int(16))
        );
        assert_eq!(
            construct_tagged("tag:yaml.org,2002:float", "1e3".into(), sp),
            Ok(Value::Float(1000.0))
        );
        assert_eq!(
            construct_tagged("tag:yaml.org,2002:str", "yes".into(), sp),
            Ok(Value::Str("yes".into()))
        );
        assert!(construct_tagged("!foo", "x".into(), sp).is_err());
        assert!(construct_tagged("tag:yaml.org,2002:int", "abc".into(), sp).is_err());
    }
}
