//! The outline of a parsed document.

use crate::diag::Span;
use crate::node::Node;

use super::is_environment;

/// One entry of a file's outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Symbol {
    /// Its name.
    pub name: String,
    /// What it is (`parameter`, `resource`, `output`, `section`, ...).
    pub kind: &'static str,
    /// A detail (a resource's type, a registry entry's target).
    pub detail: Option<String>,
    /// The whole entry (key to end of value).
    pub span: Span,
    /// Its key.
    pub key_span: Span,
    /// Entries inside it.
    pub children: Vec<Symbol>,
}

/// The outline of a parsed document: its sections, with the parameters,
/// resources, outputs and conditions (templates) or the registry entries
/// and parameters (environments) inside them.
pub(crate) fn symbols(root: &Node) -> Vec<Symbol> {
    let Some(m) = root.as_map() else {
        return Vec::new();
    };
    let entry = |k: &Node, v: &Node, kind: &'static str, detail: Option<String>| Symbol {
        name: k.value.key_text(),
        kind,
        detail,
        span: Span {
            start: k.span.start,
            end: v.span.end.max(k.span.end),
        },
        key_span: k.span,
        children: Vec::new(),
    };
    m.entries
        .iter()
        .map(|(k, v)| {
            let section = k.value.key_text();
            let kind = match section.as_str() {
                "parameters" | "parameter_defaults" => "parameter",
                "resources" => "resource",
                "outputs" => "output",
                "conditions" => "condition",
                "resource_registry" => "registry entry",
                _ => "",
            };
            let mut s = entry(k, v, "section", None);
            if !kind.is_empty() {
                if let Some(inner) = v.as_map() {
                    s.children = inner
                        .entries
                        .iter()
                        .map(|(ck, cv)| {
                            let detail = match kind {
                                "resource" => cv
                                    .as_map()
                                    .and_then(|r| r.get("type"))
                                    .and_then(|n| n.value.scalar_text()),
                                "parameter" if section == "parameters" && !is_environment(root) => {
                                    cv.as_map()
                                        .and_then(|r| r.get("type"))
                                        .and_then(|n| n.value.scalar_text())
                                }
                                _ => cv.value.scalar_text(),
                            };
                            entry(ck, cv, kind, detail)
                        })
                        .collect();
                }
            }
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::{at, parse, T};
    use super::*;

    #[test]
    fn symbols_outline_sections() {
        let root = parse(T);
        let s = symbols(&root);
        let resources = s.iter().find(|s| s.name == "resources").unwrap();
        assert_eq!(resources.children[0].name, "server");
        assert_eq!(
            resources.children[0].detail.as_deref(),
            Some("OS::Nova::Server")
        );
        assert_eq!(resources.children[0].key_span.start, at(7, 3));
    }
}
